package io.troupe.ops.metrics;

import static io.troupe.ops.metrics.Points.counter;
import static io.troupe.ops.metrics.Points.gauge;
import static io.troupe.ops.metrics.Points.seconds;

import java.util.List;
import java.util.Map;

import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot.HistogramDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.Unit;
import io.troupe.api.monitor.RequestLatency;
import io.troupe.api.monitor.TenantStats;

/**
 * The families read from the message server's tenants ({@link TenantStats}): connections, requests, their
 * latency histogram, errors by code, bytes received and time throttled by each limit, one point per configured
 * tenant.
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
final class ServerMetrics {

    private ServerMetrics() {
    }

    /** The families of {@code tenants}, each point labelled with {@code node} (empty on a single node). */
    static List<MetricSnapshot> of(List<TenantStats> tenants, Labels node) {
        GaugeSnapshot.Builder connections = GaugeSnapshot.builder().name("troupe_connections")
                .help("Authenticated connections of each tenant");
        CounterSnapshot.Builder requests = CounterSnapshot.builder().name("troupe_requests")
                .help("REQUEST and SEND frames received from each tenant");
        HistogramSnapshot.Builder latency = HistogramSnapshot.builder().name("troupe_request_duration_seconds")
                .help("Time from handing a REQUEST to its handler to queuing its answer (REPLY or ERROR)")
                .unit(Unit.SECONDS);
        CounterSnapshot.Builder errors = CounterSnapshot.builder().name("troupe_errors")
                .help("ERROR frames sent to each tenant, by code (handlers' own codes as 'other')");
        CounterSnapshot.Builder received = CounterSnapshot.builder().name("troupe_received_bytes")
                .help("Bytes of frames received from each tenant").unit(Unit.BYTES);
        CounterSnapshot.Builder throttled = CounterSnapshot.builder().name("troupe_throttled_seconds")
                .help("Time each limit held the tenant's connections back").unit(Unit.SECONDS);
        for (TenantStats tenant : tenants) {
            Labels labels = node.add("tenant", tenant.tenant());
            connections.dataPoint(gauge(labels, tenant.connections()));
            requests.dataPoint(counter(labels, tenant.requests()));
            latency.dataPoint(histogram(labels, tenant.latency()));
            for (Map.Entry<String, Long> code : tenant.errorsByCode().entrySet()) {
                errors.dataPoint(counter(labels.add("code", code.getKey()), code.getValue()));
            }
            received.dataPoint(counter(labels, tenant.bytesReceived()));
            for (Map.Entry<String, Long> limit : tenant.throttledNanos().entrySet()) {
                throttled.dataPoint(counter(labels.add("limit", limit.getKey()), seconds(limit.getValue())));
            }
        }
        return List.of(connections.build(), requests.build(), latency.build(), errors.build(), received.build(),
                throttled.build());
    }

    /** One tenant's latency histogram: the runtime's per-bucket counts, its sum. */
    static HistogramDataPointSnapshot histogram(Labels labels, RequestLatency latency) {
        int buckets = latency.counts().size();
        double[] bounds = new double[buckets];
        long[] counts = new long[buckets];
        for (int i = 0; i < buckets; i++) {
            bounds[i] = latency.boundSeconds(i);
            counts[i] = latency.counts().get(i);
        }
        return HistogramDataPointSnapshot.builder().labels(labels)
                .classicHistogramBuckets(ClassicHistogramBuckets.of(bounds, counts)).sum(latency.sumSeconds())
                .build();
    }
}
