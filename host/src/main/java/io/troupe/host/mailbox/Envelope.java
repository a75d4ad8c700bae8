package io.troupe.host.mailbox;

import io.troupe.api.ActorRef;

/**
 * One message on its way to an actor, and at the same time the node that links it into the
 * {@link Mailbox}: the only allocation the runtime makes per message.
 *
 * <p><b>Threading:</b> the producer writes the fields before publishing the envelope with the
 * mailbox's atomic exchange; after that only the consumer reads them, and it may clear them once the
 * message is processed.
 */
public final class Envelope {

    Object message;
    ActorRef sender;
    volatile Envelope next;

    public Envelope(Object message, ActorRef sender) {
        this.message = message;
        this.sender = sender;
    }

    public Object message() {
        return message;
    }

    public ActorRef sender() {
        return sender;
    }

    /** Drops the references to message and sender once the consumer is done with them. */
    void clear() {
        message = null;
        sender = null;
    }
}
