package io.troupe.host.actor;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import io.troupe.api.ActorRef;
import io.troupe.api.DeadLetter;
import io.troupe.api.ErrorCode;
import io.troupe.api.TroupeException;

/**
 * The sender of messages that had none: whatever is told to it becomes a dead letter.
 *
 * <p><b>Threading:</b> every method from any thread.
 */
final class DeadLetterRef implements ActorRef {

    private final DeadLetterOffice office;

    DeadLetterRef(DeadLetterOffice office) {
        this.office = office;
    }

    @Override
    public long id() {
        return 0;
    }

    @Override
    public long parentId() {
        return 0;
    }

    @Override
    public String name() {
        return "no-sender";
    }

    @Override
    public void tell(Object message, ActorRef sender) {
        office.publish(new DeadLetter(null, message, sender, "no sender to reply to", null));
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
        return CompletableFuture.failedFuture(
                new TroupeException(ErrorCode.ACTOR_STOPPED, "there is no sender to ask"));
    }

    @Override
    public boolean isStopped() {
        return true;
    }

    /** Always complete: there is no actor behind this reference. */
    @Override
    public CompletionStage<Void> whenTerminated() {
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public String toString() {
        return "NoSender";
    }
}
