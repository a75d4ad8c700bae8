package io.troupe.api;

/**
 * What happens to a {@link ActorRef#tell tell} that finds an actor's mailbox holding
 * {@link ActorOptions#mailboxCapacity()} messages. Chosen per actor with
 * {@link ActorOptions#withMailbox(int, MailboxOverflow)}; every message a policy refuses or drops is
 * counted in the actor's {@link ActorInfo} and in the runtime's statistics, and a dropped one becomes
 * a {@link DeadLetter}.
 *
 * <table>
 *   <caption>A full mailbox, by policy</caption>
 *   <tr><th>policy</th><th>{@code tell}</th><th>{@code offer}</th><th>{@code send}</th><th>network source</th></tr>
 *   <tr><td>{@link #BACKPRESSURE} (default)</td><td>queued anyway: never lost</td><td>{@code false}</td>
 *       <td>waits for room</td><td>stops reading</td></tr>
 *   <tr><td>{@link #REJECT}</td><td>throws {@link MailboxFullException}</td><td>{@code false}</td>
 *       <td>waits for room</td><td>stops reading</td></tr>
 *   <tr><td>{@link #DROP_NEWEST}</td><td>the new message is a dead letter</td><td>{@code false}</td>
 *       <td>waits for room</td><td>stops reading</td></tr>
 *   <tr><td>{@link #DROP_OLDEST}</td><td>the oldest waiting message is a dead letter, the new one
 *       queued</td><td>{@code false}</td><td>waits for room</td><td>stops reading</td></tr>
 * </table>
 *
 * <p>An {@link ActorRef#ask ask} to a mailbox that refuses or drops the new message fails with
 * {@link ErrorCode#MAILBOX_FULL}. Runtime notifications ({@link ChildStopped}, {@link Terminated},
 * replies to an actor's own asks) are never refused or dropped.
 *
 * <pre>
 * // a sampler that only cares about the latest 100 readings
 * ctx.spawn(Sampler::new, ActorOptions.defaults().withMailbox(100, MailboxOverflow.DROP_OLDEST));
 * </pre>
 *
 * <p><b>Threading:</b> an enum: immutable.
 *
 * @since 1.4
 */
public enum MailboxOverflow {

    /**
     * The capacity is where back-pressure starts, not a hard bound: a {@code tell} is always queued,
     * so no local message is ever lost and no worker ever waits on another actor (which could
     * deadlock the pool). Producers that can wait do: {@link ActorRef#send send} blocks its caller,
     * and the message server stops reading the sockets that feed the actor (see
     * {@link TroupeRuntime#awaitDrain}) until the backlog falls to a quarter of the capacity. The
     * default: memory grows only with what actors send each other faster than they process it.
     */
    BACKPRESSURE,

    /** A {@code tell} to a full mailbox throws {@link MailboxFullException} to the sender; nothing is queued. */
    REJECT,

    /** A {@code tell} to a full mailbox becomes a dead letter with reason {@code mailbox full}. */
    DROP_NEWEST,

    /**
     * A {@code tell} to a full mailbox is queued and the oldest message still waiting becomes a dead
     * letter with reason {@code mailbox full (oldest dropped)}. The actor drops the surplus before it
     * takes its next message, so while one long turn runs, a burst may briefly hold more than the
     * capacity in memory.
     */
    DROP_OLDEST
}
