package io.troupe.ops.metrics;

import static io.troupe.ops.metrics.Points.gauge;

import java.time.Instant;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.troupe.api.cluster.ClusterMember;
import io.troupe.api.cluster.ClusterView;
import io.troupe.api.cluster.Migration;

/**
 * The families read from the {@link ClusterView} on a cluster node: members, configured members missing,
 * migrations in progress, and migrations ended by cause; and the {@code node} label of every family.
 *
 * <h2>Counting migrations</h2>
 * The view lists the migrations in progress and the last ones that ended (at most 100), not a count, so the
 * counter is kept here: each scrape counts the ended migrations of the list it has not seen ended before,
 * known by tenant and start. The count is exact while fewer than 100 migrations end between two scrapes (a
 * scrape every 15 s allows more than six a second); it starts with the migrations the view still lists when
 * the first scrape comes, and restarts from there when the ops bundle restarts (Prometheus takes that as a
 * counter reset).
 *
 * <p><b>Threading:</b> {@link #of} from any thread, concurrently: the count of migrations is guarded by this
 * object's monitor. {@link #nodeLabel} is stateless.
 */
final class ClusterMetrics {

    /** A migration as the view lists it: one tenant's move that started at one instant. */
    private record MigrationKey(String tenant, Instant started) {
    }

    /** Guarded by {@code this}: the ended migrations of the last list, counted already. */
    private Set<MigrationKey> ended = Set.of();
    /** Guarded by {@code this}. */
    private final Map<Migration.Cause, Long> endedByCause = new EnumMap<>(Migration.Cause.class);

    ClusterMetrics() {
        for (Migration.Cause cause : Migration.Cause.values()) {
            endedByCause.put(cause, 0L);
        }
    }

    /** The {@code node} label of this member: its cluster address, or its member id before it lists itself. */
    static Labels nodeLabel(ClusterView view) {
        String address = view.members().stream().filter(ClusterMember::local).map(ClusterMember::clusterAddress)
                .findFirst().orElse(view.localNode());
        return Labels.of("node", address);
    }

    /** The families of {@code view}, each point labelled with {@code node}. */
    List<MetricSnapshot> of(ClusterView view, Labels node) {
        List<Migration> migrations = view.migrations();
        long inProgress = migrations.stream().filter(migration -> !migration.done()).count();
        CounterSnapshot.Builder ended = CounterSnapshot.builder().name("troupe_cluster_migrations")
                .help("Tenant migrations to or from any node that ended, by cause, seen by this node's scrapes");
        for (Map.Entry<Migration.Cause, Long> cause : countEnded(migrations).entrySet()) {
            String name = cause.getKey().name().toLowerCase(Locale.ROOT);
            ended.dataPoint(Points.counter(node.add("cause", name), cause.getValue()));
        }
        return List.of(
                gauge("troupe_cluster_members", "Members of the cluster now, this node included", null, node,
                        view.members().size()),
                gauge("troupe_cluster_missing_members", "Configured members not in the cluster now", null, node,
                        view.missingMembers().size()),
                gauge("troupe_cluster_migrations_in_progress", "Tenants moving between nodes now", null, node,
                        inProgress),
                ended.build());
    }

    /** Counts the ended migrations of {@code migrations} not counted before; the totals by cause. */
    private synchronized Map<Migration.Cause, Long> countEnded(List<Migration> migrations) {
        Set<MigrationKey> now = new HashSet<>();
        for (Migration migration : migrations) {
            if (migration.done()) {
                MigrationKey key = new MigrationKey(migration.tenant(), migration.started());
                now.add(key);
                if (!ended.contains(key)) {
                    endedByCause.merge(migration.cause(), 1L, Long::sum);
                }
            }
        }
        ended = now;
        return new EnumMap<>(endedByCause);
    }
}
