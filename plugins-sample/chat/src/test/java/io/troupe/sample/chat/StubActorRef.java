package io.troupe.sample.chat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;

import io.troupe.api.ActorRef;

/**
 * A hand-written {@link ActorRef} that records what it is told: a client connection (whose pushes the
 * test reads, and which the test can close) or a request's reply address.
 *
 * <p>Equality is identity, as for the runtime's references within one session.
 *
 * <p><b>Threading:</b> confined to the test thread.
 */
final class StubActorRef implements ActorRef {

    /** One message as it arrived. */
    record Envelope(Object message, ActorRef sender) {
    }

    private final long id;
    private final String name;
    private final List<Envelope> received = new ArrayList<>();
    private boolean stopped;

    StubActorRef(long id, String name) {
        this.id = id;
        this.name = name;
    }

    /** Everything told to this reference so far, oldest first. */
    List<Envelope> received() {
        return received;
    }

    /** The messages alone, oldest first. */
    List<Object> messages() {
        return received.stream().map(Envelope::message).toList();
    }

    /** The only message told so far; fails the test if there is not exactly one. */
    Object onlyMessage() {
        if (received.size() != 1) {
            throw new AssertionError(name + " expected one message, got " + received);
        }
        return received.get(0).message();
    }

    /** Closes the connection this reference stands for. */
    void markStopped() {
        stopped = true;
    }

    @Override
    public long id() {
        return id;
    }

    @Override
    public long parentId() {
        return 0;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void tell(Object message, ActorRef sender) {
        if (!stopped) { // a stopped actor's mail goes to dead letters
            received.add(new Envelope(message, sender));
        }
    }

    @Override
    public boolean offer(Object message, ActorRef sender) {
        tell(message, sender);
        return !stopped;
    }

    @Override
    public boolean send(Object message, ActorRef sender, Duration timeout) {
        tell(message, sender);
        return !stopped;
    }

    @Override
    public CompletionStage<Object> ask(Object message, Duration timeout) {
        throw new UnsupportedOperationException("not used by these tests");
    }

    @Override
    public boolean isStopped() {
        return stopped;
    }

    @Override
    public String toString() {
        return "StubActorRef[" + id + " " + name + "]";
    }
}
