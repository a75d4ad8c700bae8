package io.troupe.ops.console;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import io.troupe.api.ActorRef;

/**
 * A hand-written {@link ActorRef} with an id and a name only: what a dead letter names of its recipient and
 * sender. Every other method refuses.
 *
 * <p><b>Threading:</b> immutable.
 */
record StubRef(long id, String name) implements ActorRef {

    @Override
    public long parentId() {
        return 0;
    }

    @Override
    public void tell(Object message, ActorRef sender) {
        throw new UnsupportedOperationException("a stub");
    }

    @Override
    public boolean offer(Object message, ActorRef sender) {
        throw new UnsupportedOperationException("a stub");
    }

    @Override
    public boolean send(Object message, ActorRef sender, Duration timeout) {
        throw new UnsupportedOperationException("a stub");
    }

    @Override
    public CompletionStage<Object> ask(Object message, Duration timeout) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException("a stub"));
    }

    @Override
    public boolean isStopped() {
        return false;
    }

    @Override
    public CompletionStage<Void> whenTerminated() {
        return new CompletableFuture<>();
    }
}
