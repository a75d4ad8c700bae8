package io.troupe.sample.counter;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;

import io.troupe.api.ActorRef;

/**
 * A hand-written {@link ActorRef} that records what it is told, standing in for a request's reply
 * address.
 *
 * <p><b>Threading:</b> confined to the test thread.
 */
final class StubActorRef implements ActorRef {

    private final long id;
    private final String name;
    private final List<Object> received = new ArrayList<>();

    StubActorRef(long id, String name) {
        this.id = id;
        this.name = name;
    }

    /** Everything told to this reference so far, oldest first. */
    List<Object> received() {
        return received;
    }

    /** The only message told so far; fails the test if there is not exactly one. */
    Object onlyMessage() {
        if (received.size() != 1) {
            throw new AssertionError(name + " expected one message, got " + received);
        }
        return received.get(0);
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
        received.add(message);
    }

    @Override
    public boolean offer(Object message, ActorRef sender) {
        tell(message, sender);
        return true;
    }

    @Override
    public boolean send(Object message, ActorRef sender, Duration timeout) {
        tell(message, sender);
        return true;
    }

    @Override
    public CompletionStage<Object> ask(Object message, Duration timeout) {
        throw new UnsupportedOperationException("not used by these tests");
    }

    @Override
    public boolean isStopped() {
        return false;
    }

    @Override
    public String toString() {
        return "StubActorRef[" + id + " " + name + "]";
    }
}
