package io.troupe.ops.metrics;

import static io.troupe.ops.metrics.Points.counter;
import static io.troupe.ops.metrics.Points.gauge;
import static io.troupe.ops.metrics.Points.seconds;

import java.util.ArrayList;
import java.util.List;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.Unit;
import io.troupe.api.monitor.HandlerStats;
import io.troupe.api.monitor.RuntimeSnapshot;
import io.troupe.api.monitor.TenantLoad;
import io.troupe.api.monitor.ThreadStats;

/**
 * The families read from one {@link RuntimeSnapshot} of the host: actors, mailboxes, handlers, workers, IO
 * loops, dead letters, stalls, plugin swaps and the logger.
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
final class RuntimeMetrics {

    private RuntimeMetrics() {
    }

    /** The families of {@code snapshot}, each point labelled with {@code node} (empty on a single node). */
    static List<MetricSnapshot> of(RuntimeSnapshot snapshot, Labels node) {
        List<MetricSnapshot> families = new ArrayList<>();
        families.add(handlers(snapshot.handlers(), node, "troupe_messages_processed",
                "Messages processed by the live actors of each handler (requests, timers, notifications)", true));
        families.add(handlers(snapshot.handlers(), node, "troupe_messages_failed",
                "Failures of receive in the live actors of each handler", false));
        families.add(counter("troupe_dead_letters", "Messages that could not be delivered", null, node,
                snapshot.deadLetters()));
        families.add(gauge("troupe_mailbox_backlog_messages", "Messages waiting in all mailboxes", null, node,
                snapshot.mailboxBacklog()));
        families.add(gauge("troupe_actors", "Live actors", null, node, snapshot.actors()));
        int busy = snapshot.workers().busy();
        families.add(GaugeSnapshot.builder().name("troupe_workers").help("Workers in an actor turn (busy) or not")
                .dataPoint(gauge(node.add("state", "busy"), busy))
                .dataPoint(gauge(node.add("state", "idle"), Math.max(0, snapshot.workers().current() - busy)))
                .build());
        families.add(gauge("troupe_worker_pool_size", "Workers now", null, node, snapshot.workers().current()));
        families.add(gauge("troupe_worker_pool_max_size", "The most workers the pool may grow to", null, node,
                snapshot.workers().max()));
        families.add(gauge("troupe_worker_busy_ratio", "Share of the last second the workers spent in actor turns",
                Unit.RATIO, node, snapshot.workers().busyRatio()));
        families.add(gauge("troupe_run_queue_actors", "Runnable actors waiting for a worker", null, node,
                snapshot.workers().queued()));
        families.add(loops(snapshot.loops(), node));
        families.add(counter("troupe_stalls", "Stalled actor turns and IO loop iterations detected", null, node,
                snapshot.stalls()));
        families.add(tenantWorkerTime(snapshot.tenants(), node));
        families.add(counter("troupe_plugin_swaps", "Plugin updates whose new revision took over its actors", null,
                node, snapshot.pluginSwaps()));
        families.add(counter("troupe_plugin_rollbacks",
                "Plugin updates refused or failed after which the previous revision serves", null, node,
                snapshot.pluginRollbacks()));
        families.add(gauge("troupe_log_queue_bytes", "Memory the logger's buffer holds for records not yet written",
                Unit.BYTES, node, snapshot.logQueueBytes()));
        families.add(counter("troupe_log_records_dropped", "Log records dropped at the logger's buffer cap", null,
                node, snapshot.logRecordsDropped()));
        return families;
    }

    private static CounterSnapshot handlers(List<HandlerStats> handlers, Labels node, String name, String help,
                                            boolean processed) {
        CounterSnapshot.Builder family = CounterSnapshot.builder().name(name).help(help);
        for (HandlerStats handler : handlers) {
            family.dataPoint(counter(node.add("handler", handler.name()),
                    processed ? handler.processed() : handler.failures()));
        }
        return family.build();
    }

    private static GaugeSnapshot loops(List<ThreadStats> loops, Labels node) {
        GaugeSnapshot.Builder family = GaugeSnapshot.builder().name("troupe_io_loop_busy_ratio")
                .help("Share of the last second each IO loop (and the acceptor) spent outside its select")
                .unit(Unit.RATIO);
        for (ThreadStats loop : loops) {
            family.dataPoint(gauge(node.add("loop", loop.name()), loop.busyRatio()));
        }
        return family.build();
    }

    private static CounterSnapshot tenantWorkerTime(List<TenantLoad> tenants, Labels node) {
        CounterSnapshot.Builder family = CounterSnapshot.builder().name("troupe_tenant_worker_seconds")
                .help("Worker time the turns of each tenant's actors have taken").unit(Unit.SECONDS);
        for (TenantLoad tenant : tenants) {
            family.dataPoint(counter(node.add("tenant", tenant.tenant()), seconds(tenant.workerNanos())));
        }
        return family.build();
    }
}
