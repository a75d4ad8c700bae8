package io.troupe.host.actor;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import io.troupe.api.ActorRef;
import io.troupe.host.dispatch.RuntimeThread;

/**
 * The blocking {@link ActorRef#send}: offers the message until the target accepts it, parking with
 * an exponential back-off (1 µs doubling up to 1 ms) between refusals, until the timeout. A target
 * that has stopped takes the message as a failure (a dead letter, or {@code no.handler} for a
 * request) and the send returns {@code false} at once.
 *
 * <p><b>Threading:</b> the caller's thread, which must not be a runtime thread: a worker that
 * blocks until a mailbox drains could be the very worker that should drain it.
 */
public final class BlockingSend {

    private static final long FIRST_BACKOFF_NANOS = 1_000;
    private static final long MAX_BACKOFF_NANOS = 1_000_000;

    private BlockingSend() {
    }

    /**
     * @param target     the reference sent to, for messages and as the park blocker
     * @param stopped    whether the target has stopped for good
     * @param failStopped delivers the message to a stopped target, which fails it
     * @param offer      one attempt: {@code true} if the target accepted the message
     * @return whether the message was accepted within the timeout
     * @throws IllegalStateException on a runtime thread
     * @throws InterruptedException  if the caller is interrupted while waiting
     */
    public static boolean send(ActorRef target, Duration timeout, BooleanSupplier stopped, Runnable failStopped,
                               BooleanSupplier offer) throws InterruptedException {
        if (RuntimeThread.isCurrent()) {
            throw new IllegalStateException("blocking send is not allowed on runtime thread "
                    + Thread.currentThread().getName() + ": use offer or tell");
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        long backoff = FIRST_BACKOFF_NANOS;
        while (true) {
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while sending to " + target);
            }
            if (stopped.getAsBoolean()) {
                failStopped.run();
                return false;
            }
            if (offer.getAsBoolean()) {
                return true;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            LockSupport.parkNanos(target, Math.min(backoff, left));
            backoff = Math.min(backoff * 2, MAX_BACKOFF_NANOS);
        }
    }
}
