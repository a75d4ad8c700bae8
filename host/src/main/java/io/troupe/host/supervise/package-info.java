/**
 * Supervision of the runtime's own threads and the process-wide rule for fatal errors. Private to the host
 * bundle.
 *
 * <pre>
 *  any thread ── Throwable t ──► isFatal(t)? (a VirtualMachineError, or one among its causes)
 *       │ yes                                    │ no
 *       ▼                                        ▼
 *  FatalErrors.fatal ─► FatalExit:            a runtime loop (IO loop, worker, timer, monitor, logger):
 *    release HeapReserve, watchdog armed,       LoopFailures: log (thread, what it was doing), go on with
 *    "troupe: FATAL: ..." on stderr,            the same work; the 10th failure within 10 s is fatal
 *    one FATAL record in log/troupe.log,      a task or handler on a runtime thread: logged by its loop
 *    Runtime.halt(70)                         any other thread's uncaught throwable: UncaughtErrors logs it
 * </pre>
 *
 * <h2>Threading</h2>
 * {@link io.troupe.host.supervise.FatalErrors} from any thread; {@link io.troupe.host.supervise.LoopFailures}
 * confined to its loop; {@link io.troupe.host.supervise.ProcessSupervision} opened and closed by the host's
 * activator.
 */
package io.troupe.host.supervise;
