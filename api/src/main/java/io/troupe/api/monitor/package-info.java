/**
 * Runtime statistics: what the host's monitor measures, and what the message server counts per
 * tenant, as immutable snapshots for shells, health checks and dashboards.
 *
 * <pre>
 *   host bundle                                    consumers (shell, tools)
 *   ----------------------------------------       ------------------------------------------
 *   troupe-monitor thread: every worker and        RuntimeStats.snapshot()
 *     IO loop heartbeat, busy ratio per second ──►   └─ RuntimeSnapshot
 *   actor registry, dead letters, log drops,           ├─ WorkerPoolStats ── ThreadStats per worker
 *   log queue, plugin swaps and rollbacks ───────►      │
 *                                                       ├─ ThreadStats per IO loop
 *                                                       ├─ HandlerStats per handler name
 *   actor pools of poolable handlers ────────────►      └─ PoolStats per pool (handler, tenant)
 *
 *   server bundle (when it runs)
 *   sessions count per tenant; a sampler ────────► ServerStats.tenants()
 *     ends a 10 s rate window                        └─ TenantStats per tenant
 *   one latency count per answered REQUEST ──────►      └─ RequestLatency (histogram), errors by code
 * </pre>
 *
 * <p>Since 1.4 the records carry what Prometheus-style metrics need besides: per tenant a request latency
 * histogram ({@link io.troupe.api.monitor.RequestLatency}) and the errors by code; for the runtime the plugin
 * swaps and rollbacks and the logger's queue. Every count is cumulative since its part started, so
 * consumers compute rates and windows from two readings.
 *
 * <h2>Threading</h2>
 * {@link io.troupe.api.monitor.RuntimeStats#snapshot()} may be called from any thread; the records
 * it returns are immutable and may be shared freely. Taking a snapshot walks the live actors, so it
 * costs time proportional to their number: call it on demand or every few seconds, not per message.
 *
 * <h2>Compatibility</h2>
 * The records are constructed by the runtime only; consumers read them. A later minor version may
 * add components.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.4.0")
package io.troupe.api.monitor;
