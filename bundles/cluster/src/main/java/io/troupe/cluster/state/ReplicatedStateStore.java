package io.troupe.cluster.state;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Pattern;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.map.LocalMapStats;
import com.hazelcast.query.Predicate;
import com.hazelcast.query.Predicates;

import io.troupe.api.state.StateKey;
import io.troupe.api.state.StateStore;
import io.troupe.api.state.StoreStats;
import io.troupe.api.state.StoredState;

/**
 * The cluster's {@link StateStore}: durable actors' snapshots in the replicated Hazelcast map
 * {@value #MAP}, written through to this node's local store, so that a tenant's actors start on whichever
 * node owns the tenant now with the state they had on the node that served it before, even when that node
 * crashed.
 *
 * <pre>
 * ReplicatedStateStore store = new ReplicatedStateStore(hazelcast, localStore);   // localStore may be null
 * store.seedFrom(localStore, configuredTenants);                                 // before registering it
 * ... register it as the StateStore service (ranking 100) ...
 * store.close();                                                                 // before hazelcast.shutdown()
 * </pre>
 *
 * <p><b>Layout.</b> Key {@code <origin>/<path>@<tenant>} ({@link StateMapKeys}): every state of a tenant is
 * in the partition of the tenant id, which is also what decides the tenant's owner, so the owner's writes
 * and reads are local to it and its backups are where the tenant's next owner will be after a crash.
 * Value: an 8-byte write stamp and the snapshot ({@link StateMapValue}). The map's synchronous backups
 * (backupCount) are configured by the cluster component.
 *
 * <p><b>Durability.</b> {@link #write} issues two writes at once, in the caller's order: the map's
 * ({@code setAsync}, complete once its synchronous backups have it; one write of a key in flight at a time,
 * see {@link OrderedMapWrites}) and the local store's (write-through, complete once on this node's disk). Its stage completes once both are done. It fails with an
 * {@link IOException} when the map refused the write (the map then keeps the previous snapshot, which
 * reads return). A failure of the local store alone is logged and counted, and does not fail the stage:
 * the snapshot is then held by the map's backupCount + 1 members, which is the replicated store's promise;
 * only a restart of the whole cluster needs the local copies. Tenant {@code ""} (actors of no tenant) is
 * node-local: its snapshots go to the local store only, never to the map.
 *
 * <p><b>Reads.</b> {@link #read} asks the map first, and the local store only when the map has nothing
 * under the key (a whole-cluster restart that seeded no copy of it). {@link #delete} and {@link #purge}
 * leave tombstones in the map (a stamp, no snapshot: 8 bytes and the key), so that a copy in some node's
 * local store cannot come back; tombstones stay in the map.
 *
 * <p><b>Seeding after a whole-cluster restart.</b> {@link #seedFrom} copies a local store's snapshots of the
 * given tenants into the map where the map has nothing for the key or something older. The rule: <em>for
 * each key the newest stamp wins</em>, whichever node's local store it comes from (the local store's
 * {@link StoredState#writtenAt} against the map value's stamp; a tombstone counts with its deletion time;
 * on equal stamps the map keeps what it has). Local stores keep no tombstones, so a delete or purge is
 * forgotten by a whole-cluster restart when another node's local store still holds an older copy of the key
 * (the runtime does not delete states; purge is an operator's act: purge again after such a restart).
 * Seeding is done by every node as it starts, so the map converges on the newest copy once every node has
 * started; an actor that starts before the node holding its newest copy has seeded starts from the older one
 * (minimumMembers makes that unlikely).
 *
 * <p><b>Threading:</b> every method from any thread, concurrently. {@link #write} and {@link #delete} never
 * block: their stages complete on a Hazelcast thread, the local store's writer thread or the caller's, so
 * callbacks on them should be short. {@link #read}, {@link #list}, {@link #purge} and {@link #seedFrom} block
 * on the network (and the local store's disk). {@link #close} refuses later writes and waits for those in
 * flight.
 */
public final class ReplicatedStateStore implements StateStore, AutoCloseable {

    /** The name of the replicated map of states. */
    public static final String MAP = "troupe.state";
    /**
     * The Hazelcast property that must name {@link #PARTITIONING_STRATEGY} in the member's configuration:
     * Hazelcast's default strategy partitions a String key by the whole key, and this one by the part after
     * its first {@code '@'}, which puts the states of a tenant in the tenant's partition (keys without
     * {@code '@'}, such as tenant ids, are partitioned as before). It must be member-wide: Hazelcast 5.7.0's
     * {@code IMap.setAsync} ignores a strategy given to the map alone ({@code MapConfig
     * .setPartitioningStrategyConfig}), so that its writes would land where {@code get} does not look.
     */
    public static final String PARTITIONING_PROPERTY = "hazelcast.partitioning.strategy.class";
    /** The partitioning strategy {@link #PARTITIONING_PROPERTY} must name. */
    public static final String PARTITIONING_STRATEGY = "com.hazelcast.partition.strategy.StringPartitioningStrategy";

    private static final Logger LOG = LoggerFactory.getLogger(ReplicatedStateStore.class);
    private static final long CLOSE_PATIENCE_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final IMap<String, byte[]> map;
    private final OrderedMapWrites ordered;
    private final StateStore local;
    private final WriteLatency latency = new WriteLatency();
    private final AtomicLong writes = new AtomicLong();
    private final AtomicLong bytesWritten = new AtomicLong();
    private final AtomicLong localFailures = new AtomicLong();
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile boolean closed;

    /**
     * A store on the map {@value #MAP} of {@code hazelcast}, a started member whose configuration gives the
     * map its backups.
     *
     * @param local this node's store, written through and read when the map has nothing; {@code null} for
     *              none (then the states of tenant {@code ""} cannot be kept, and a whole-cluster restart
     *              loses every state)
     */
    public ReplicatedStateStore(HazelcastInstance hazelcast, StateStore local) {
        Objects.requireNonNull(hazelcast, "hazelcast");
        if (!partitionsByTenant(hazelcast)) {
            throw new IllegalStateException("the Hazelcast member does not partition String keys by the part after"
                    + " '@', so a tenant's states would not be in the tenant's partition: set its property "
                    + PARTITIONING_PROPERTY + "=" + PARTITIONING_STRATEGY + " (member-wide: a strategy given to the"
                    + " map alone is ignored by IMap.setAsync)");
        }
        this.map = hazelcast.getMap(MAP);
        this.ordered = new OrderedMapWrites(map);
        this.local = local;
    }

    /** Whether the member puts {@code <anything>@<tenant>} in the partition of {@code <tenant>}. */
    static boolean partitionsByTenant(HazelcastInstance hazelcast) {
        var partitions = hazelcast.getPartitionService();
        for (String tenant : new String[] {"a", "b", "c", "d"}) {
            if (partitions.getPartition("x/y@" + tenant).getPartitionId()
                    != partitions.getPartition(tenant).getPartitionId()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Copies {@code from}'s snapshots of {@code tenants} into the map where the map has none for the key or
     * an older one (see the class comment for the rule). Tenant {@code ""} is skipped: it is never replicated;
     * so are the {@linkplain StateKey#movedActors states a moved tenant brought for actors that are not
     * durable}: after a whole-cluster restart those actors start afresh, as after any restart.
     *
     * @return how many snapshots were copied into the map
     * @throws IOException when {@code from} cannot be listed or read
     */
    public int seedFrom(StateStore from, Collection<String> tenants) throws IOException {
        Objects.requireNonNull(from, "from");
        int seeded = 0;
        for (String tenant : new HashSet<>(tenants)) {
            if (tenant.isEmpty()) {
                continue;
            }
            for (StoredState stored : from.list(tenant)) {
                if (stored.key().isMovedActors()) {
                    continue; // states of actors that are not durable, from a move before the restart: afresh
                }
                Optional<byte[]> snapshot = from.read(stored.key());
                long stamp = stored.writtenAt().toEpochMilli();
                if (snapshot.isPresent() && seedOne(StateMapKeys.encode(stored.key()), snapshot.get(), stamp)) {
                    seeded++;
                }
            }
        }
        LOG.info("Seeded {} state snapshot(s) of {} tenant(s) into the cluster's map {}", seeded, tenants.size(), MAP);
        return seeded;
    }

    /** Puts the snapshot under {@code mapKey} unless the map has one at least as new. */
    private boolean seedOne(String mapKey, byte[] snapshot, long stamp) {
        byte[] value = StateMapValue.encode(snapshot, stamp);
        while (true) {
            byte[] current = map.get(mapKey);
            if (current == null) {
                if (map.putIfAbsent(mapKey, value) == null) {
                    return true;
                }
            } else if (StateMapValue.stamp(current) >= stamp) {
                return false;
            } else if (map.replace(mapKey, current, value)) {
                return true;
            }
        }
    }

    /**
     * Writes {@code snapshot} to the map and through to the local store (see the class comment). The array
     * is copied: the caller may reuse it.
     *
     * @return completes once both are written; fails with an {@link IOException} when the map refused it,
     *         with an {@link IllegalStateException} once the store is closed
     */
    @Override
    public CompletionStage<Void> write(StateKey key, byte[] snapshot) {
        Objects.requireNonNull(snapshot, "snapshot");
        if (key.tenant().isEmpty()) {
            return local == null ? noLocalStore(key) : local.write(key, snapshot);
        }
        if (!enter()) {
            return CompletableFuture.failedFuture(closed("write of " + key));
        }
        byte[] value = StateMapValue.encode(snapshot, System.currentTimeMillis());
        CompletionStage<Void> localStage = null;
        if (local != null) {
            try {
                localStage = local.write(key, snapshot);
            } catch (RuntimeException e) {
                localStage = CompletableFuture.failedFuture(e);
            }
        }
        return pair(key, "write", value, localStage, snapshot.length);
    }

    /**
     * Deletes the state under {@code key}: a tombstone in the map, a delete in the local store.
     *
     * @return completes once both are done; fails with an {@link IOException} when the map refused it
     */
    @Override
    public CompletionStage<Void> delete(StateKey key) {
        if (key.tenant().isEmpty()) {
            return local == null ? noLocalStore(key) : local.delete(key);
        }
        if (!enter()) {
            return CompletableFuture.failedFuture(closed("delete of " + key));
        }
        byte[] tombstone = StateMapValue.tombstone(System.currentTimeMillis());
        CompletionStage<Void> localStage = null;
        if (local != null) {
            try {
                localStage = local.delete(key);
            } catch (RuntimeException e) {
                localStage = CompletableFuture.failedFuture(e);
            }
        }
        return pair(key, "delete", tombstone, localStage, -1);
    }

    /** Counts a write in flight unless the store is closed (then false, and nothing counted). */
    private boolean enter() {
        inFlight.incrementAndGet();
        if (closed) {
            inFlight.decrementAndGet();
            return false;
        }
        return true;
    }

    private CompletionStage<Void> pair(StateKey key, String what, byte[] value, CompletionStage<Void> localStage,
                                       int bytes) {
        PairedWrite done = new PairedWrite(key, what, localStage == null ? 1 : 2, bytes);
        // never two writes of one key in flight: see OrderedMapWrites
        ordered.set(StateMapKeys.encode(key), value).whenComplete(done);
        if (localStage != null) {
            localStage.whenComplete((ignored, failure) -> done.localDone(failure));
        }
        return done;
    }

    @Override
    public Optional<byte[]> read(StateKey key) throws IOException {
        if (key.tenant().isEmpty()) {
            return local == null ? Optional.empty() : local.read(key);
        }
        byte[] value;
        try {
            value = map.get(StateMapKeys.encode(key));
        } catch (RuntimeException e) {
            throw new IOException("the replicated state map " + MAP + " could not read " + key + ": " + e, e);
        }
        if (value != null) {
            return StateMapValue.deleted(value) ? Optional.empty() : Optional.of(StateMapValue.snapshot(value));
        }
        return local == null ? Optional.empty() : local.read(key);
    }

    /**
     * What the map holds for {@code tenant} (tombstones left out), ordered by origin and path; for tenant
     * {@code ""}, what the local store holds. Only the tenant's partition is queried.
     */
    @Override
    public List<StoredState> list(String tenant) throws IOException {
        Objects.requireNonNull(tenant, "tenant");
        if (tenant.isEmpty()) {
            return local == null ? List.of() : local.list(tenant);
        }
        List<StoredState> states = new ArrayList<>();
        for (Map.Entry<String, byte[]> entry : entriesOf(tenant)) {
            byte[] value = entry.getValue();
            if (!StateMapValue.deleted(value)) {
                states.add(new StoredState(StateMapKeys.decode(entry.getKey()), StateMapValue.snapshotBytes(value),
                        Instant.ofEpochMilli(StateMapValue.stamp(value))));
            }
        }
        states.sort(Comparator.comparing((StoredState s) -> s.key().origin()).thenComparing(s -> s.key().path()));
        return states;
    }

    /**
     * Removes every state of {@code tenant}: a tombstone in the map for each key the map or the local store
     * holds, then the local store's purge. Tenant {@code ""}: the local store's purge.
     *
     * @return how many snapshots were removed (keys with a snapshot in the map or the local store)
     */
    @Override
    public int purge(String tenant) throws IOException {
        Objects.requireNonNull(tenant, "tenant");
        if (tenant.isEmpty()) {
            return local == null ? 0 : local.purge(tenant);
        }
        Set<String> live = new HashSet<>();
        for (Map.Entry<String, byte[]> entry : entriesOf(tenant)) {
            if (!StateMapValue.deleted(entry.getValue())) {
                live.add(entry.getKey());
            }
        }
        if (local != null) {
            for (StoredState stored : local.list(tenant)) {
                live.add(StateMapKeys.encode(stored.key()));
            }
        }
        Map<String, byte[]> tombstones = new HashMap<>();
        byte[] tombstone = StateMapValue.tombstone(System.currentTimeMillis());
        for (String key : live) {
            tombstones.put(key, tombstone);
        }
        try {
            map.setAll(tombstones);
        } catch (RuntimeException e) {
            throw new IOException("the replicated state map " + MAP + " could not purge tenant '" + tenant + "': "
                    + e, e);
        }
        if (local != null) {
            local.purge(tenant);
        }
        return live.size();
    }

    private Collection<Map.Entry<String, byte[]>> entriesOf(String tenant) throws IOException {
        Predicate<String, byte[]> ofTenant = Predicates.regex("__key",
                "[^@]*" + Pattern.quote(StateMapKeys.tenantSuffix(tenant)));
        try {
            return map.entrySet(Predicates.partitionPredicate(tenant, ofTenant));
        } catch (RuntimeException e) {
            throw new IOException("the replicated state map " + MAP + " could not list tenant '" + tenant + "': "
                    + e, e);
        }
    }

    /**
     * This node's figures: {@code writes} and {@code bytesWritten} count the replicated writes made through
     * this store (tenant {@code ""}'s are the local store's own); {@code syncs} are the local store's (0
     * without one); {@code writeNanosP99} is over the recent replicated writes, from {@code write} to both
     * done; {@code storedStates} and {@code storedBytes} are the map entries whose primary copy this node holds
     * (tombstones included), so that the sum over the nodes is the cluster's.
     */
    @Override
    public StoreStats stats() {
        StoreStats localStats = local == null ? null : local.stats();
        LocalMapStats mapStats = map.getLocalMapStats();
        return new StoreStats(writes.get(), bytesWritten.get(), localStats == null ? 0 : localStats.syncs(),
                latency.p99(), mapStats.getOwnedEntryCount(), mapStats.getOwnedEntryMemoryCost());
    }

    /** Local-store write-through failures since the store was made (each also logged). */
    public long localFailures() {
        return localFailures.get();
    }

    /**
     * Refuses later writes and deletes and waits (at most 10 s) for those in flight, so that they reach the
     * map before Hazelcast stops. Idempotent. Does not close the local store.
     */
    @Override
    public void close() {
        closed = true;
        long deadline = System.nanoTime() + CLOSE_PATIENCE_NANOS;
        while (inFlight.get() > 0 && System.nanoTime() - deadline < 0 && !Thread.currentThread().isInterrupted()) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        if (inFlight.get() > 0) {
            LOG.warn("The replicated state store closed with {} write(s) still in flight", inFlight.get());
        }
    }

    private static CompletionStage<Void> noLocalStore(StateKey key) {
        return CompletableFuture.failedFuture(new IOException("no local state store on this node for " + key
                + ": the states of actors of no tenant are kept in the local store only"));
    }

    private IllegalStateException closed(String what) {
        return new IllegalStateException("the replicated state store is closed: " + what + " refused");
    }

    @Override
    public String toString() {
        return "ReplicatedStateStore[" + MAP + ", local " + local + "]";
    }

    /**
     * The stage of one write: completes once the map's write (this object is its callback) and the local
     * store's are done; the one object a write adds besides the value and the key.
     */
    private final class PairedWrite extends CompletableFuture<Void> implements java.util.function.BiConsumer<Void,
            Throwable> {

        private static final AtomicIntegerFieldUpdater<PairedWrite> REMAINING =
                AtomicIntegerFieldUpdater.newUpdater(PairedWrite.class, "remaining");

        private final StateKey key;
        private final String what;
        private final int bytes;
        private final long begin = System.nanoTime();
        private volatile int remaining;
        private volatile Throwable mapFailure;

        PairedWrite(StateKey key, String what, int parts, int bytes) {
            this.key = key;
            this.what = what;
            this.bytes = bytes;
            this.remaining = parts;
        }

        @Override
        public void accept(Void ignored, Throwable failure) {
            mapFailure = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            partDone();
        }

        void localDone(Throwable failure) {
            if (failure != null) {
                localFailures.incrementAndGet();
                LOG.warn("The local store could not keep the {} of {} (the cluster's map has it): {}", what, key,
                        failure.toString());
            }
            partDone();
        }

        private void partDone() {
            if (REMAINING.decrementAndGet(this) != 0) {
                return;
            }
            inFlight.decrementAndGet();
            Throwable failure = mapFailure;
            if (failure != null) {
                completeExceptionally(new IOException("the replicated state map " + MAP + " refused the " + what
                        + " of " + key + ": " + failure, failure));
                return;
            }
            if (bytes >= 0) {
                writes.incrementAndGet();
                bytesWritten.addAndGet(bytes);
            }
            latency.record(System.nanoTime() - begin);
            complete(null);
        }
    }
}
