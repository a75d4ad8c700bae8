/**
 * Mailboxes: each actor's FIFO queue of messages, with a capacity the cell's overflow policy reads, and beside it the unbounded lane for the
 * runtime's system messages. Private to the host bundle.
 *
 * <pre>
 *  any thread                                          the actor's turn (one worker at a time)
 *  ─────────────────────────────────────────────────   ─────────────────────────────────────────
 *  ActorRef.tell / offer / send
 *    └► ActorCell.tell / offer: new Envelope(message, sender)
 *         ├► Mailbox.forceOffer (tell under the default BACKPRESSURE policy: one getAndAdd, no bound)
 *         └► Mailbox.offer ── full ──► false: the cell applies the actor's overflow policy (tell), or
 *              │                       the caller learns it (offer; send retries, see actor.BlockingSend)
 *              │ claim a place (CAS on produced), link (getAndSet of head)
 *              ▼
 *         sentinel ─► e1 ─► e2 ─► e3 ◄─ head   ────────►  Mailbox.poll, then releaseLast
 *
 *  the runtime: stop, restart, failed child, swap steps
 *    └► Mailbox.offerSystem ─► systemHead (stack) ───────►  pollSystem: taken whole, oldest first,
 *                                                          before every ordinary message
 *  a child's stop notice ─► Mailbox.forceOffer: past the capacity, never lost, never ahead of
 *                           what was queued before it
 * </pre>
 *
 * <h2>Parts</h2>
 * {@link io.troupe.host.mailbox.Mailbox} is the queue (Vyukov's MPSC linked queue with a capacity kept
 * by two wrapping counters, and a lock-free stack for system messages); {@link
 * io.troupe.host.mailbox.Envelope} is one message with its sender, and at the same time the queue's
 * node: the only allocation the runtime makes per message. The package knows nothing of actors,
 * workers or scheduling: {@link io.troupe.host.actor.ActorCell} owns one mailbox, offers into it on the
 * sender's thread and then submits itself to the dispatcher if it was idle, and drains it during its
 * turn.
 *
 * <h2>Threading</h2>
 * Many producers, one consumer. {@code offer}, {@code forceOffer}, {@code offerSystem} and {@code size}
 * from any thread: lock-free, never blocking, never allocating beyond the envelope (and a node per
 * system message). {@code poll}, {@code pollSystem}, {@code releaseLast}, {@code hasSystemMessages} and
 * {@code isEmpty} only on the owning actor's turn, which the cell's run-state compare-and-set keeps to
 * one thread at a time. Messages from one producer thread are polled in the order it offered them.
 */
package io.troupe.host.mailbox;
