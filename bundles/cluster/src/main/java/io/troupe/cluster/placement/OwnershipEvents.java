package io.troupe.cluster.placement;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.EntryAdapter;
import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.map.listener.EntryRemovedListener;
import com.hazelcast.partition.MigrationListener;
import com.hazelcast.partition.MigrationState;
import com.hazelcast.partition.ReplicaMigrationEvent;
import com.hazelcast.replicatedmap.ReplicatedMap;

import io.troupe.cluster.engine.ClusterNode;

/**
 * What Hazelcast tells a {@link TenantOwnership}: a member joined or left, partitions migrated, a lease was
 * removed, a node's known tenants changed. Each becomes a task of the cluster thread; a burst of migration
 * events becomes one reconciliation.
 *
 * <p><b>Threading:</b> {@link #listen} and {@link #unlisten} on the cluster thread; the listeners run on
 * Hazelcast's event threads and only queue tasks, which run the {@link Handler} on the cluster thread.
 */
final class OwnershipEvents {

    /** The cluster thread's side. */
    interface Handler {
        /** The membership or the partition table changed. */
        void changed();

        /** {@code node} left the cluster (or was found gone) at {@code noticed}. */
        void memberRemoved(String node, Instant noticed);

        /** The lease of {@code tenant} was removed. */
        void leaseRemoved(String tenant);
    }

    private static final Logger LOG = LoggerFactory.getLogger(OwnershipEvents.class);

    private final HazelcastInstance instance;
    private final IMap<String, String> leases;
    private final Executor thread;
    private final Handler handler;
    private final AtomicBoolean changeQueued = new AtomicBoolean();
    private final List<Runnable> unlisten = new ArrayList<>();

    OwnershipEvents(HazelcastInstance instance, IMap<String, String> leases, Executor thread, Handler handler) {
        this.instance = instance;
        this.leases = leases;
        this.thread = thread;
        this.handler = handler;
    }

    void listen() {
        UUID membership = instance.getCluster().addMembershipListener(new MembershipListener() {
            @Override
            public void memberAdded(MembershipEvent event) {
                queueChange();
            }

            @Override
            public void memberRemoved(MembershipEvent event) {
                Instant noticed = Instant.now();
                String node = event.getMember().getUuid().toString();
                onClusterThread(() -> handler.memberRemoved(node, noticed));
            }
        });
        unlisten.add(() -> instance.getCluster().removeMembershipListener(membership));
        UUID migrations = instance.getPartitionService().addMigrationListener(new MigrationListener() {
            @Override
            public void migrationStarted(MigrationState state) {
            }

            @Override
            public void migrationFinished(MigrationState state) {
                queueChange();
            }

            @Override
            public void replicaMigrationCompleted(ReplicaMigrationEvent event) {
                queueChange();
            }

            @Override
            public void replicaMigrationFailed(ReplicaMigrationEvent event) {
                queueChange();
            }
        });
        unlisten.add(() -> instance.getPartitionService().removeMigrationListener(migrations));
        UUID removals = leases.addEntryListener((EntryRemovedListener<String, String>) event ->
                onClusterThread(() -> handler.leaseRemoved(event.getKey())), false);
        unlisten.add(() -> leases.removeEntryListener(removals));
        // a node that comes to know tenants may be waited for by their old owners
        ReplicatedMap<String, String> known = instance.getReplicatedMap(ClusterNode.KNOWN);
        UUID knowing = known.addEntryListener(new EntryAdapter<>() {
            @Override
            public void onEntryEvent(EntryEvent<String, String> event) {
                queueChange();
            }
        });
        unlisten.add(() -> known.removeEntryListener(knowing));
    }

    /** Stops listening; a member that has stopped has forgotten the listeners already. */
    void unlisten() {
        for (Runnable remove : unlisten) {
            try {
                remove.run();
            } catch (RuntimeException e) {
                LOG.debug("Listener not removed (the member has stopped): {}", e.toString());
            }
        }
        unlisten.clear();
    }

    private void queueChange() {
        if (changeQueued.compareAndSet(false, true)) {
            onClusterThread(() -> {
                changeQueued.set(false);
                handler.changed();
            });
        }
    }

    private void onClusterThread(Runnable task) {
        try {
            thread.execute(() -> {
                try {
                    task.run();
                } catch (RuntimeException e) {
                    if (instance.getLifecycleService().isRunning()) {
                        LOG.warn("Cluster thread: {}", e.toString(), e);
                    } else {
                        LOG.debug("Cluster thread, member stopped: {}", e.toString());
                    }
                }
            });
        } catch (RejectedExecutionException e) {
            LOG.debug("Cluster thread stopped: event dropped");
        }
    }
}
