/**
 * {@code /metrics}: the runtime's own counters in the Prometheus text format (0.0.4) or OpenMetrics 1.0, read
 * at scrape time.
 *
 * <pre>
 *   Prometheus ──GET /metrics──► MetricsServlet (Jetty thread; "troupe" context checks the admin token)
 *                                    │ Accept → ExpositionFormat: OpenMetrics 1.0 or text 0.0.4
 *                                    ▼
 *                                TroupeCollector.collect()   (a MultiCollector; any number of scrapes at once)
 *                                    ├─ RuntimeStats.snapshot()   ──► RuntimeMetrics  (always, with the host)
 *                                    ├─ ServerStats.tenants()     ──► ServerMetrics   (while the server runs)
 *                                    ├─ StateStore.stats()        ──► StoreMetrics    (when a store is registered)
 *                                    └─ ClusterView               ──► ClusterMetrics  (on a cluster node; adds
 *                                                                     the node label to every family)
 * </pre>
 *
 * <h2>Why the Prometheus Java client 1.x, not Micrometer</h2>
 * The exposition uses {@code io.prometheus:prometheus-metrics-model} and
 * {@code prometheus-metrics-exposition-textformats} 1.10.0, which are OSGi bundles. Its {@code MultiCollector}
 * builds immutable snapshots (counters, gauges and classic histograms with their buckets, sum and count) from
 * whatever the collector reads when Prometheus scrapes, so the runtime's existing counters (the server's
 * per-tenant LongAdders and latency histogram, the host's statistics) are turned into metrics at scrape time
 * and nothing is counted a second time on a hot path. Micrometer's meter model can read a counter or gauge
 * through a function, but a histogram (its {@code Timer} or {@code DistributionSummary}) only from values
 * recorded into the meter itself, which would mean a second recording per request beside the runtime's own.
 *
 * <h2>Names and labels</h2>
 * Prometheus conventions: the {@code troupe_} prefix, base units (seconds, bytes), {@code _total} for counters
 * (written by the library), ratios from 0 to 1. Labels come only from bounded sets: {@code tenant} from the
 * configured tenants, {@code handler} from the registered handlers, {@code code} from the protocol's error codes
 * (handlers' own codes as {@code other}), {@code limit}, {@code loop}, {@code state} and {@code cause} from fixed
 * names; never from what a client sends. {@code node} (this member's cluster address) appears only on a cluster
 * node. A part that is absent (no server, no store, no cluster) has no metrics, rather than zeros. The full list
 * is in the README, section Metrics.
 *
 * <p>Counters are the runtime's counts since its part started; {@code troupe_messages_processed_total} keeps the
 * counts of a handler's actors that stopped (the host's RetiredCounts), so it never goes back.
 *
 * <h2>Threading</h2>
 * Scrapes run on the servlet container's threads, concurrently. They only read the services' snapshots (which
 * never block a runtime thread) and the collector's own small state, which {@link
 * io.troupe.ops.metrics.ClusterMetrics} guards.
 */
package io.troupe.ops.metrics;
