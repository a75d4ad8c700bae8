package io.troupe.api;

/**
 * Thrown by {@link ActorRef#tell} to the sender when the receiver's mailbox is full and its
 * {@linkplain MailboxOverflow overflow policy} is {@link MailboxOverflow#REJECT}: the message was not
 * queued. Its {@link #code()} is {@link ErrorCode#MAILBOX_FULL}.
 *
 * <pre>
 * try {
 *     ingest.tell(reading);
 * } catch (MailboxFullException full) {
 *     shedLoad(full.receiver());
 * }
 * </pre>
 *
 * <p><b>Threading:</b> immutable once thrown.
 *
 * @since 1.4
 */
public class MailboxFullException extends TroupeException {

    private static final long serialVersionUID = 1L;

    private final transient ActorRef receiver;

    /** @param receiver the actor whose mailbox was full */
    public MailboxFullException(ActorRef receiver, int capacity) {
        super(ErrorCode.MAILBOX_FULL, "mailbox of " + receiver.name() + "#" + receiver.id() + " is full ("
                + capacity + " messages waiting)");
        this.receiver = receiver;
    }

    /** The actor whose mailbox was full; {@code null} after deserialisation. */
    public ActorRef receiver() {
        return receiver;
    }
}
