/**
 * Actors: the cells that run them, the tree they form, supervision, timers, asks and dead letters.
 * The {@link io.troupe.api.ActorContext}, {@link io.troupe.api.ActorRef} and {@link io.troupe.api.Timers}
 * that plugins see are implemented here. Private to the host bundle.
 *
 * <pre>
 *  sender (any thread)          LocalActorRef.tell ─► ActorCell.tell ─► by the MailboxOverflow policy:
 *                                 BACKPRESSURE Mailbox.forceOffer; others Mailbox.offer, and when full
 *                                 throw (REJECT), dead-letter (DROP_NEWEST) or queue anyway (DROP_OLDEST)
 *                               LocalActorRef.offer ─► ActorCell.offer ─► Mailbox.offer (false when full)
 *                                 └─ was IDLE? CAS to SCHEDULED ─► Dispatcher.execute
 *  worker (one turn)            ActorCell.run
 *                                 ├─ system messages (SystemMessage: Stop, Restart, Failed, ChildTerminated,
 *                                 │  Adopt, Detach, Prepare …) ─► CellLifecycle / Supervision / CellSwap
 *                                 ├─ up to `throughput` envelopes ─► Actor.receive(cell as ActorContext, msg)
 *                                 │     an ActorTimer is checked against ActorTimers, a ChildNotice against
 *                                 │     the current incarnation, before the actor sees its payload; a
 *                                 │     TurnTask (an ask's completion) runs instead; a WatchNotice becomes
 *                                 │     Terminated if still watched; unstashed envelopes (CellBehaviour)
 *                                 │     come before the mailbox; a behaviour set by become() receives
 *                                 └─ IDLE again; more work? Dispatcher.requeue
 *  timer thread                 ActorTimer.run ─► ActorCell.deliverTimer ─► the mailbox
 *
 *  ActorSystem: registry (id → cell), guardian #0 ("root"), DeadLetterOffice, Dispatcher, Scheduler,
 *               FactoryResolver (the plugin directory)
 *    guardian ── handler:echo (tenant a) ── children spawned by it … (tree of cells, CellChildren)
 * </pre>
 *
 * <h2>Supervision</h2>
 * When {@code receive} (or {@code preStart}) throws, the cell suspends itself, the message becomes a
 * dead letter (an ask fails with {@code handler.failed}), and the parent gets {@code Failed} as a
 * system message. On the parent's turn {@link io.troupe.host.actor.Supervision} applies the parent
 * actor's {@link io.troupe.api.SupervisorStrategy} and its {@link io.troupe.host.actor.RestartHistory}:
 * resume, restart (children stopped first, a fresh instance, {@code preRestart}/{@code preStart}), stop,
 * or escalate. The guardian supervises top-level actors (handler actors, pool members) and stops those
 * that keep failing. A stopping cell stops its children first; the parent then receives {@link
 * io.troupe.api.ChildStopped}, and requests still queued fail with the stop's code ({@link
 * io.troupe.host.actor.StopReason}).
 *
 * <h2>Hot swap</h2>
 * A swap moves every actor whose code the plugin's old revision loaded, at any depth, to the next
 * revision: each detaches (exports a portable state, keeps its mailbox, id, name and place in the tree),
 * then is prepared on the new revision ({@code importState}) and committed, or all are reattached or
 * aborted together. While a swap is open the {@link io.troupe.host.actor.ActorSystem} starts every new
 * actor of the swapped code detached, among the swap's {@link io.troupe.host.actor.LateActors}, which
 * the decision then starts on the right revision. {@link io.troupe.host.actor.CellSwap} holds one
 * cell's steps, {@link io.troupe.host.actor.CodeSwap} and {@link io.troupe.host.actor.SwapBarrier} one
 * swap's actors, and {@code io.troupe.host.plugin.PluginSwaps} coordinates a plugin's swap; the
 * lifecycle each instance sees is documented on {@link io.troupe.api.Actor} and in the README's
 * plugin guide.
 *
 * <h2>Death-watch</h2>
 * A cell's {@link io.troupe.host.actor.Watchers}, created by the first watcher or the first
 * {@code whenTerminated}, hold the watching cells in a concurrent set: whoever removes a watcher from
 * it notifies it, the dying cell after its lifecycle turned terminated, or the watcher itself when it
 * registered after that; a removal succeeds once, so each watch ends in exactly one
 * {@link io.troupe.api.Terminated}. The watcher's own side (what it watches, its stash, the behaviour it
 * became) lives in its turn-confined {@link io.troupe.host.actor.CellBehaviour}; a stopping watcher
 * leaves its targets' sets.
 *
 * <h2>Threading</h2>
 * A cell's instance, its {@code ActorContext}, its children, timers, lifecycle and swap state are
 * confined to its turns; the run-state compare-and-set lets one thread at a time run a turn, and its
 * volatile accesses order each turn before the next. From any thread: {@code ActorRef} methods
 * ({@code send} refuses runtime threads, see {@link io.troupe.host.actor.BlockingSend}), the cell's
 * {@code tell}, {@code offer}, {@code sendSystem}, {@code deliverTimer}, {@link io.troupe.host.actor.ActorSystem}'s public
 * methods and the read-only accessors a monitor uses ({@link io.troupe.host.actor.ActorTurn}). No locks
 * on the message path; the registry is a concurrent map. Timer actions run on the timer thread but
 * only enqueue; dead-letter subscribers run on the publishing thread.
 */
package io.troupe.host.actor;
