/**
 * The monitor: the thread that watches every other thread (they are listed in
 * {@code docs/architecture.md}) and adjusts the runtime to what it sees. Private to the host bundle;
 * what it measures is published through the api's {@link io.troupe.api.monitor.RuntimeStats} service.
 *
 * <pre>
 *                   heartbeats (single-writer fields, opaque/release stores, no allocation)
 *   Worker ──── turn number, task, parked time ───────┐
 *   EventLoop ─ left select at, select waits ─────────┤
 *                                                     ▼
 *                                   RuntimeMonitor ("troupe-monitor", every 250 ms)
 *                                     ├─ StallDetector ─► WARN once per stall: actor, message, stack
 *                                     ├─ PoolSizer ─────► WorkerPool.addWorkers / retireIdle (INFO, reason)
 *                                     ├─ BusySampler ───► busy ratio per thread, per second
 *                                     └─ summary ───────► INFO "Runtime: workers ..." every 60 s
 *                                                     │
 *   ActorSystem (registry, dead letters) ─────────────┤
 *   TroupeLogging (dropped records) ──────────────────┤
 *                                                     ▼
 *                                   HostRuntimeStats ─► RuntimeStats service ─► troupe:stats
 * </pre>
 *
 * <h2>What the hot path pays</h2>
 * A worker: four release stores per turn (plain moves on x86) and no clock read: the monitor times
 * turns by the first look that saw them (to within one period, 250 ms by default, against a 2 s
 * threshold), because {@code System.nanoTime()} costs tens of nanoseconds on virtual machines (about
 * 30 ns with kvm-clock), a real share of a one-message turn. Workers read the clock only around
 * parking, which is a system call anyway. An actor: one opaque store of the current message before
 * and after {@code receive}. An IO loop: two {@code nanoTime()} calls per iteration, next to its
 * select system call, so its time away from select is exact. Nothing allocates; the monitor does
 * all the arithmetic.
 *
 * <h2>Threading</h2>
 * The monitor thread is the only one that reads heartbeats for decisions, resizes the pool and keeps
 * per-stall memory; it is not a runtime thread, so it keeps running when every worker and loop is
 * stuck. {@link io.troupe.host.monitor.HostRuntimeStats#snapshot()} may be called from any thread.
 */
package io.troupe.host.monitor;
