package io.troupe.host.actor;

import java.time.Duration;
import java.util.concurrent.CompletionStage;

import io.troupe.api.ActorRef;

/**
 * The reference to an actor living in this runtime: a thin handle on its {@link ActorCell}.
 *
 * <p><b>Threading:</b> every method from any thread; {@link #send} refuses runtime threads.
 */
final class LocalActorRef implements ActorRef {

    private final ActorCell cell;

    LocalActorRef(ActorCell cell) {
        this.cell = cell;
    }

    ActorCell cell() {
        return cell;
    }

    @Override
    public long id() {
        return cell.id();
    }

    @Override
    public long parentId() {
        return cell.parentId();
    }

    @Override
    public String name() {
        return cell.name();
    }

    @Override
    public void tell(Object message, ActorRef sender) {
        if (Outbox.holding(this, message, sender, cell)) {
            return; // a durable turn's message: delivered once its state is on disk
        }
        cell.tell(message, sender);
    }

    @Override
    public boolean offer(Object message, ActorRef sender) {
        return cell.offer(message, sender);
    }

    @Override
    public boolean send(Object message, ActorRef sender, Duration timeout) throws InterruptedException {
        return BlockingSend.send(this, timeout, cell::isTerminated, () -> cell.tell(message, sender),
                () -> cell.offer(message, sender));
    }

    @Override
    public CompletionStage<Object> ask(Object message, Duration timeout) {
        return cell.system().ask(this, message, timeout);
    }

    @Override
    public CompletionStage<Object> ask(Object message) {
        return cell.system().askUnbounded(this, message);
    }

    @Override
    public boolean isStopped() {
        return cell.isTerminated();
    }

    @Override
    public CompletionStage<Void> whenTerminated() {
        return cell.whenTerminated().thenApply(done -> null); // a copy: callers cannot complete the cell's own
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof LocalActorRef ref && ref.cell == cell;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(cell.id());
    }

    @Override
    public String toString() {
        return "Actor[" + cell.name() + "#" + cell.id() + "]";
    }
}
