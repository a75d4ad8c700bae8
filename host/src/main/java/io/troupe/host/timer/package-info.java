/**
 * Timers: one thread that runs short actions at their deadlines, behind the {@link
 * io.troupe.host.timer.Scheduler} interface. Private to the host bundle.
 *
 * <pre>
 *  any thread                                      TimerThread "troupe-timer"
 *  ─────────────────────────────────────────       ─────────────────────────────────────────────
 *  Scheduler.schedule(action, delay) ─► Timeout    loop: drain the inbox into the TimerQueue,
 *    └► lock-free inbox ── unpark only if the            run the due Timeouts (deadline, then order),
 *       deadline is earlier than the one the             park until the next deadline (at most 1 s)
 *       thread sleeps towards
 *  Timeout.cancel() ─ marks it; the queue drops it lazily and purges in bulk
 *
 *  its users                             what the action does, on the timer thread
 *  actor.ActorTimer (ctx.timers())       puts the timer itself into the actor's mailbox
 *  actor.AskRef (ask with a timeout)     fails the ask's future with a TimeoutException
 *  plugin.PluginSwaps (swap grace)       stops the actors a swap left detached
 * </pre>
 *
 * <h2>Parts</h2>
 * {@link io.troupe.host.timer.TimerThread} owns the thread and implements {@link
 * io.troupe.host.timer.Scheduler}; {@link io.troupe.host.timer.TimerQueue} keeps {@link
 * io.troupe.host.timer.Timeout}s ordered by deadline. Each reactor event loop has a {@code TimerQueue}
 * of its own, run by the loop's thread between selects (connection timeouts), so network timers never
 * cross threads.
 *
 * <h2>Threading</h2>
 * {@code schedule}, {@code nanoTime} and {@code Timeout.cancel} from any thread, lock-free. Actions run
 * on the timer thread, must be quick and never block, and never run plugin code: they only enqueue a
 * message or complete a future, and the work happens on a worker. A failing action is logged and the
 * thread goes on. {@code TimerQueue} itself is confined to its owner thread except {@code newTimeout}.
 */
package io.troupe.host.timer;
