package io.troupe.host.actor;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.host.mailbox.Mailbox;

/**
 * What one cell's full (or filling) mailbox causes: the producers paused by backpressure, a lock-free
 * stack of callbacks registered while the mailbox is above its high-water mark (half the capacity) and
 * released, all at once, when it falls to its low-water mark (a quarter) or the cell terminates; and the
 * count of messages its overflow policy refused to their senders or dropped into dead letters. Created
 * by the first producer that has to wait or the first overflow, so that an actor whose mailbox never
 * filled carries none.
 *
 * <p><b>Threading:</b> {@link #await} and the counters from any thread; {@link #releaseIfDrained} from
 * the cell's turn (and from {@link #await} itself, to close the race with a concurrent drain). A
 * callback runs exactly once, on whichever thread takes the stack.
 */
final class MailboxPressure {

    /** The cell's logger, so that log thresholds configured for cells keep applying. */
    private static final Logger LOG = LoggerFactory.getLogger(ActorCell.class);
    private static final VarHandle HEAD;

    static {
        try {
            HEAD = MethodHandles.lookup().findVarHandle(MailboxPressure.class, "head", Waiter.class);
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

    /** Messages refused to their senders because the mailbox was full. */
    final AtomicLong rejected = new AtomicLong();
    /** Messages the full mailbox dropped into dead letters. */
    final AtomicLong dropped = new AtomicLong();

    MailboxPressure(Mailbox mailbox, BooleanSupplier terminated, String owner) {
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
