package io.troupe.cluster.placement;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryRemovedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;
import com.hazelcast.ringbuffer.OverflowPolicy;
import com.hazelcast.ringbuffer.ReadResultSet;
import com.hazelcast.ringbuffer.Ringbuffer;

import io.troupe.api.cluster.Migration;
import io.troupe.cluster.engine.ClusterNode;

/**
 * The cluster's migrations: the finished ones in the Ringbuffer {@value ClusterNode#MIGRATIONS} (the last
 * {@value ClusterNode#MIGRATIONS_CAPACITY}, encoded {@code tenant|from|to|CAUSE|startedMillis|pauseMillis}),
 * and those in progress, read from the handoff records of {@value ClusterNode#HANDOFFS}.
 *
 * <p>{@link #migrations()} answers from what this node already holds: the in-progress ones follow the
 * handoff map through an entry listener, the finished ones are read from the ring by {@link #refresh()}.
 *
 * <p><b>Threading:</b> {@link #start}, {@link #record} and {@link #refresh} on the cluster thread (they
 * touch Hazelcast; their asynchronous answers land on Hazelcast threads and update the snapshot under this
 * object's lock). {@link #migrations()} from any thread, never waiting on the network.
 */
public final class MigrationLog {

    private static final Logger LOG = LoggerFactory.getLogger(MigrationLog.class);

    private final Ringbuffer<String> ring;
    private final IMap<String, String> handoffs;
    private final Map<String, Migration> inProgress = new ConcurrentHashMap<>();
    private final Deque<Migration> finished = new ArrayDeque<>();
    private long nextSequence;
    private boolean reading;
    private UUID listener;

    public MigrationLog(HazelcastInstance instance) {
        this.ring = instance.getRingbuffer(ClusterNode.MIGRATIONS);
        this.handoffs = instance.getMap(ClusterNode.HANDOFFS);
    }

    /** Follows the handoff records and reads the finished migrations a first time. */
    public void start() {
        listener = handoffs.addEntryListener(new HandoffListener(), true);
        for (Map.Entry<String, String> entry : handoffs.entrySet()) {
            handoffChanged(entry.getKey(), entry.getValue());
        }
        refresh();
    }

    /** Stops following the handoff records. */
    public void stop() {
        UUID id = listener;
        if (id != null) {
            try {
                handoffs.removeEntryListener(id);
            } catch (RuntimeException e) {
                LOG.debug("Handoff listener not removed: {}", e.toString());
            }
        }
    }

    /** Adds a finished migration to the ring (asynchronously), then reads the ring again. */
    public void record(Migration migration) {
        ring.addAsync(encode(migration), OverflowPolicy.OVERWRITE).whenComplete((sequence, failure) -> {
            if (failure != null) {
                LOG.warn("Migration of tenant {} not recorded: {}", migration.tenant(), failure.toString());
            } else {
                refresh();
            }
        });
    }

    /** Reads the migrations added to the ring since the last read (asynchronously). */
    public void refresh() {
        long from;
        synchronized (this) {
            if (reading) {
                return;
            }
            reading = true;
            from = nextSequence;
        }
        try {
            ring.readManyAsync(from, 0, ClusterNode.MIGRATIONS_CAPACITY, null).whenComplete(this::read);
        } catch (RuntimeException e) {
            synchronized (this) {
                reading = false;
            }
        }
    }

    private synchronized void read(ReadResultSet<String> result, Throwable failure) {
        reading = false;
        if (failure != null) {
            LOG.debug("Migrations not read: {}", failure.toString());
            return;
        }
        for (String text : result) {
            try {
                finished.addFirst(decode(text));
            } catch (IllegalArgumentException e) {
                LOG.warn("Skipping a migration record: {}", e.getMessage());
            }
        }
        while (finished.size() > ClusterNode.MIGRATIONS_CAPACITY) {
            finished.removeLast();
        }
        nextSequence = result.getNextSequenceToReadFrom();
    }

    /**
     * The migrations in progress, then the finished ones, each group the newest (latest started) first; at
     * most {@value ClusterNode#MIGRATIONS_CAPACITY}.
     */
    public List<Migration> migrations() {
        Comparator<Migration> newestFirst = Comparator.comparing(Migration::started).reversed();
        List<Migration> all = new ArrayList<>(inProgress.values());
        all.sort(newestFirst);
        List<Migration> ended;
        synchronized (this) {
            ended = new ArrayList<>(finished);
        }
        ended.sort(newestFirst);
        all.addAll(ended);
        return List.copyOf(all.subList(0, Math.min(all.size(), ClusterNode.MIGRATIONS_CAPACITY)));
    }

    /** The ring's text of a finished migration. */
    public static String encode(Migration migration) {
        return String.join("|", migration.tenant(), migration.from(), migration.to(), migration.cause().name(),
                Long.toString(migration.started().toEpochMilli()), Long.toString(migration.pause().toMillis()));
    }

    /**
     * The finished migration of a ring's text.
     *
     * @throws IllegalArgumentException when {@code text} is no migration record
     */
    public static Migration decode(String text) {
        String[] parts = text.split("\\|", -1);
        if (parts.length != 6) {
            throw new IllegalArgumentException("not a migration record: '" + text + "'");
        }
        try {
            return new Migration(parts[0], parts[1], parts[2], Migration.Cause.valueOf(parts[3]),
                    Instant.ofEpochMilli(Long.parseLong(parts[4])), Duration.ofMillis(Long.parseLong(parts[5])), true);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a migration record: '" + text + "'", e);
        }
    }

    private void handoffChanged(String tenant, String record) {
        if (record == null) {
            inProgress.remove(tenant);
            return;
        }
        try {
            Handoff handoff = Handoff.decode(record);
            inProgress.put(tenant, new Migration(tenant, handoff.from(), "", handoff.cause(), handoff.pausedAt(),
                    Duration.ZERO, false));
        } catch (IllegalArgumentException e) {
            LOG.warn("Tenant {}: {}", tenant, e.getMessage());
        }
    }

    /** Follows {@value ClusterNode#HANDOFFS} on Hazelcast's event threads. */
    private final class HandoffListener implements EntryAddedListener<String, String>,
            EntryUpdatedListener<String, String>, EntryRemovedListener<String, String> {

        @Override
        public void entryAdded(EntryEvent<String, String> event) {
            handoffChanged(event.getKey(), event.getValue());
        }

        @Override
        public void entryUpdated(EntryEvent<String, String> event) {
            handoffChanged(event.getKey(), event.getValue());
        }

        @Override
        public void entryRemoved(EntryEvent<String, String> event) {
            handoffChanged(event.getKey(), null);
        }
    }
}
