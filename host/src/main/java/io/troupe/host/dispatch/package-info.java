/**
 * The dispatcher: the worker threads that run actor turns. Private to the host bundle.
 *
 * <pre>
 *  ActorCell.schedule (IDLE → SCHEDULED, CAS)                on any thread: a sender, a timer, a loop
 *    └► Dispatcher.execute(cell)
 *         ├─ called on a worker ──► that worker's own queue (LocalQueue; full: the run queue), no fence
 *         └─ called elsewhere ───► RunQueue (MPMC ring + overflow) ─ full fence ─ no worker spinning?
 *                                                                                  unpark an idle one
 *  WorkerPool ── Worker "troupe-worker-1" … "troupe-worker-N"  (min … max; names never reused)
 *                  │ next task: its own queue (at most LOCAL_STREAK in a row), else the run queue,
 *                  │            else another worker's backlog (> 64) or what waits behind its turn
 *                  │            of 20 µs or more,
 *                  │            else a spin (troupe.workers.spinMicros, yielding; only while spins
 *                  │            find work: AdaptiveSpin), else park
 *                  │ idle too long while another turn runs: take what waits behind that turn
 *                  │ every 32 tasks, busy or not: take what waits behind a turn seen for 1 ms
 *                  ▼
 *               cell.run(): one turn, system messages first, then up to `throughput` messages
 *                  └─ more work left? Dispatcher.requeue(cell): behind the others
 *
 *  RuntimeMonitor ("troupe-monitor") reads every Worker's heartbeat (turn counter, task) and calls
 *  WorkerPool.addWorkers while turns are stalled, retireIdle once the extra workers are unneeded
 * </pre>
 *
 * <h2>Parts</h2>
 * {@link io.troupe.host.dispatch.Dispatcher} is what the actor system sees; {@link
 * io.troupe.host.dispatch.WorkerPool} implements it with {@link io.troupe.host.dispatch.Worker}s sharing
 * one lock-free run queue; {@link io.troupe.host.dispatch.RuntimeThread} marks the runtime's own threads
 * (workers, IO loops, the timer thread) so that blocking calls refuse to run on them ({@code
 * ActorRef.send} throws there). The dispatcher runs any {@link java.lang.Runnable}; in practice
 * every task is an {@link io.troupe.host.actor.ActorCell}, which guarantees it is queued at most once
 * at a time.
 *
 * <h2>Threading</h2>
 * {@code execute} and {@code requeue} from any thread, lock-free, never blocking and never running the
 * task inside the call. Each worker runs one task at a time and resets its context class loader after
 * it. Resizing ({@code addWorkers}, {@code retireIdle}), new bounds and spin time ({@code reconfigure}) and
 * {@code shutdown} come from other threads (the monitor, configuration, the host's activator) and are
 * serialised by a lock that {@code execute} never takes. The
 * heartbeat accessors are read racily but consistently from any thread (see {@link
 * io.troupe.host.dispatch.Worker}).
 */
package io.troupe.host.dispatch;
