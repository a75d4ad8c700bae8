package io.troupe.host.actor;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeoutException;

import io.troupe.api.ActorRef;
import io.troupe.api.Failure;
import io.troupe.host.timer.Timeout;

/**
 * The temporary reply address of one {@linkplain ActorRef#ask ask}: the first message told to it
 * completes the future ({@link Failure} completes it exceptionally); later ones are ignored. A timer
 * fails it when no reply comes in time, unless it was asked without a timeout.
 *
 * <p><b>Threading:</b> every method from any thread; completion is atomic.
 */
final class AskRef implements ActorRef {

    private final long id;
    private final String target;
    private final CompletableFuture<Object> future = new CompletableFuture<>();
    private volatile Timeout timeout;

    AskRef(long id, String target) {
        this.id = id;
        this.target = target;
    }

    CompletableFuture<Object> future() {
        return future;
    }

    void expireAfter(Timeout timeout) {
        this.timeout = timeout;
        if (future.isDone()) {
            timeout.cancel();
        }
    }

    void expire(Duration after) {
        future.completeExceptionally(new TimeoutException("no reply from " + target + " within " + after));
    }

    /** Completes with a failure, as the runtime does when the request cannot be delivered. */
    void fail(Failure failure) {
        complete(failure);
    }

    private void complete(Object reply) {
        boolean completed = reply instanceof Failure failure
                ? future.completeExceptionally(failure.toException())
                : future.complete(reply);
        Timeout pending = timeout;
        if (completed && pending != null) {
            pending.cancel();
        }
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
        return "ask:" + target;
    }

    @Override
    public void tell(Object message, ActorRef sender) {
        if (Outbox.holding(this, message, sender, null)) {
            return; // a durable turn's reply: delivered once its state is on disk
        }
        complete(message);
    }

    @Override
    public boolean offer(Object message, ActorRef sender) {
        complete(message);
        return true;
    }

    @Override
    public boolean send(Object message, ActorRef sender, Duration timeout) {
        complete(message);
        return true;
    }

    @Override
    public CompletionStage<Object> ask(Object message, Duration timeout) {
        return CompletableFuture.failedFuture(
                new UnsupportedOperationException("a temporary reply address cannot be asked"));
    }

    @Override
    public boolean isStopped() {
        return future.isDone();
    }

    /** Complete once the reply came, the ask failed or it timed out: the address is then used up. */
    @Override
    public CompletionStage<Void> whenTerminated() {
        return future.handle((reply, failure) -> null);
    }

    @Override
    public String toString() {
        return "Ask[" + target + "#" + id + "]";
    }
}
