package io.troupe.host.actor;

import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.locks.LockSupport;

import io.troupe.api.ActorRef;
import io.troupe.host.dispatch.RuntimeThread;

/**
 * The reference to an actor living in this runtime: a thin handle on its {@link ActorCell}.
 *
 * <p><b>Threading:</b> every method from any thread; {@link #send} refuses runtime threads.
 */
final class LocalActorRef implements ActorRef {

    private static final long MAX_BACKOFF_NANOS = 1_000_000;

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
        cell.enqueue(message, sender, true);
    }

    @Override
    public boolean offer(Object message, ActorRef sender) {
        return cell.enqueue(message, sender, false);
    }

    @Override
    public boolean send(Object message, ActorRef sender, Duration timeout) throws InterruptedException {
        if (RuntimeThread.isCurrent()) {
            throw new IllegalStateException("blocking send is not allowed on runtime thread "
                    + Thread.currentThread().getName() + ": use offer or tell");
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        long backoff = 1_000;
        while (true) {
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while sending to " + this);
            }
            if (cell.isTerminated()) {
                cell.enqueue(message, sender, true);
                return false;
            }
            if (cell.enqueue(message, sender, false)) {
                return true;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            LockSupport.parkNanos(this, Math.min(backoff, left));
            backoff = Math.min(backoff * 2, MAX_BACKOFF_NANOS);
        }
    }

    @Override
    public CompletionStage<Object> ask(Object message, Duration timeout) {
        return cell.system().ask(this, message, timeout);
    }

    @Override
    public boolean isStopped() {
        return cell.isTerminated();
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
