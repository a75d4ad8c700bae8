package io.troupe.host.actor;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.BooleanSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.host.mailbox.Mailbox;

/**
 * The producers of one cell paused by backpressure: a lock-free stack of callbacks, registered while
 * the mailbox is above its high-water mark (half the capacity) and released, all at once, when it
 * falls to its low-water mark (a quarter) or the cell terminates.
 *
 * <p><b>Threading:</b> {@link #await} from any thread; {@link #releaseIfDrained} from the cell's turn
 * (and from {@link #await} itself, to close the race with a concurrent drain). A callback runs exactly
 * once, on whichever thread takes the stack.
 */
final class DrainWaiters {

    /** The cell's logger, so that log thresholds configured for cells keep applying. */
    private static final Logger LOG = LoggerFactory.getLogger(ActorCell.class);
    private static final VarHandle HEAD;

    static {
        try {
            HEAD = MethodHandles.lookup().findVarHandle(DrainWaiters.class, "head", Waiter.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** An immutable node of the stack. */
    private record Waiter(Runnable onDrained, Waiter next) { }

    private final Mailbox mailbox;
    private final BooleanSupplier terminated;
    private final String owner;
    @SuppressWarnings("unused") // accessed through HEAD
    private volatile Waiter head;

    DrainWaiters(Mailbox mailbox, BooleanSupplier terminated, String owner) {
        this.mailbox = mailbox;
        this.terminated = terminated;
        this.owner = owner;
    }

    /**
     * If the mailbox is above its high-water mark, registers {@code onDrained} to run once it falls
     * below the low-water mark and returns {@code true}.
     */
    boolean await(Runnable onDrained) {
        if (terminated.getAsBoolean() || mailbox.size() < highWaterMark()) {
            return false;
        }
        Waiter top;
        do {
            top = head;
        } while (!HEAD.compareAndSet(this, top, new Waiter(onDrained, top)));
        // The consumer may have drained the mailbox between the check and the push, and looked for
        // waiters before there was one: look again, so that no producer waits forever.
        if (mailbox.size() <= lowWaterMark() || terminated.getAsBoolean()) {
            release();
        }
        return true;
    }

    /** Runs every waiting callback if the mailbox is at its low-water mark or the cell terminated. */
    void releaseIfDrained() {
        if (head != null && (mailbox.size() <= lowWaterMark() || terminated.getAsBoolean())) {
            release();
        }
    }

    private int highWaterMark() {
        return Math.max(1, mailbox.capacity() / 2);
    }

    private int lowWaterMark() {
        return mailbox.capacity() / 4;
    }

    private void release() {
        Waiter waiter = (Waiter) HEAD.getAndSet(this, null);
        for (; waiter != null; waiter = waiter.next()) {
            try {
                waiter.onDrained().run();
            } catch (RuntimeException e) {
                LOG.warn("A backpressure callback for {} failed", owner, e);
            }
        }
    }
}
