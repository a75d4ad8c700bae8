package io.troupe.ops.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.troupe.api.cluster.ClusterView;
import io.troupe.api.monitor.RuntimeStats;
import io.troupe.api.monitor.ServerStats;
import io.troupe.api.state.StateStore;

/**
 * Troupe's metrics as one Prometheus {@link MultiCollector}: at each scrape it reads the services
 * {@link MetricSources} has now and turns their counters into snapshots ({@link RuntimeMetrics},
 * {@link ServerMetrics}, {@link StoreMetrics}, {@link ClusterMetrics}). The families of an absent part are left
 * out. On a cluster node every point carries the {@code node} label.
 *
 * <p><b>Threading:</b> {@link #collect()} from any thread, concurrently (see {@link ClusterMetrics} for the one
 * piece of state it keeps).
 */
final class TroupeCollector implements MultiCollector {

    private final MetricSources sources;
    private final ClusterMetrics cluster = new ClusterMetrics();

    TroupeCollector(MetricSources sources) {
        this.sources = Objects.requireNonNull(sources, "sources");
    }

    @Override
    public MetricSnapshots collect() {
        ClusterView view = sources.cluster();
        Labels node = view == null ? Labels.EMPTY : ClusterMetrics.nodeLabel(view);
        List<MetricSnapshot> families = new ArrayList<>();
        RuntimeStats runtime = sources.runtime();
        if (runtime != null) {
            families.addAll(RuntimeMetrics.of(runtime.snapshot(), node));
        }
        ServerStats server = sources.server();
        if (server != null) {
            families.addAll(ServerMetrics.of(server.tenants(), node));
        }
        StateStore store = sources.store();
        if (store != null) {
            families.addAll(StoreMetrics.of(store.stats(), node));
        }
        if (view != null) {
            families.addAll(cluster.of(view, node));
        }
        return new MetricSnapshots(families);
    }
}
