package io.troupe.ops.metrics;

import static io.troupe.ops.metrics.Points.counter;
import static io.troupe.ops.metrics.Points.gauge;
import static io.troupe.ops.metrics.Points.seconds;

import java.util.List;

import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.Unit;
import io.troupe.api.state.StoreStats;

/**
 * The families read from the durable state store's counters ({@link StoreStats}): writes, bytes, syncs, what
 * it holds and its recent write latency.
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
final class StoreMetrics {

    private StoreMetrics() {
    }

    /** The families of {@code stats}, each point labelled with {@code node} (empty on a single node). */
    static List<MetricSnapshot> of(StoreStats stats, Labels node) {
        return List.of(
                counter("troupe_store_writes", "Snapshots of durable actors written", null, node, stats.writes()),
                counter("troupe_store_written_bytes", "Bytes of the snapshots written", Unit.BYTES, node,
                        stats.bytesWritten()),
                counter("troupe_store_syncs", "Syncs to disk, each making a batch of writes durable", null, node,
                        stats.syncs()),
                gauge("troupe_store_states", "Snapshots stored now", null, node, stats.storedStates()),
                gauge("troupe_store_stored_bytes", "Size of the snapshots stored now", Unit.BYTES, node,
                        stats.storedBytes()),
                gauge("troupe_store_write_p99_seconds",
                        "99th percentile of a write's latency, from write to durable, over the recent writes",
                        Unit.SECONDS, node, seconds(stats.writeNanosP99())));
    }
}
