package io.troupe.host.mailbox;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

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

    private static final VarHandle NEXT;

    static {
        try {
            NEXT = MethodHandles.lookup().findVarHandle(Envelope.class, "next", Envelope.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    Object message;
    ActorRef sender;
    /** Linked by the producer with a release store, followed by the consumer with acquire loads. */
    @SuppressWarnings("unused") // accessed through NEXT
    private Envelope next;

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

    /** Links {@code successor} behind this envelope, publishing its fields to the consumer. */
    void link(Envelope successor) {
        NEXT.setRelease(this, successor);
    }

    /** The envelope linked behind this one, or {@code null} while none is (yet). */
    Envelope next() {
        return (Envelope) NEXT.getAcquire(this);
    }

    /** Drops the references to message and sender once the consumer is done with them. */
    void clear() {
        message = null;
        sender = null;
    }
}
