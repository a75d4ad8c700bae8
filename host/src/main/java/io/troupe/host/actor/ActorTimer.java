package io.troupe.host.actor;

import io.troupe.host.timer.Scheduler;
import io.troupe.host.timer.Timeout;

/**
 * One timer of one actor. When due, the timer thread puts the timer itself into the actor's mailbox
 * (no allocation per firing); the actor's turn then checks that the timer is still the active one
 * for its key before delivering {@link #message()}, so a cancelled or replaced timer never delivers.
 *
 * <p><b>Threading:</b> {@link #run} on the timer thread; {@link #cancel} on the actor's turn.
 */
final class ActorTimer implements Runnable {

    private final ActorCell cell;
    private final String key;
    private final Object message;
    private final long periodNanos;
    private final Scheduler scheduler;
    private volatile boolean cancelled;
    private volatile Timeout pending;
    private long nextDeadline;

    ActorTimer(ActorCell cell, String key, Object message, long periodNanos, Scheduler scheduler) {
        this.cell = cell;
        this.key = key;
        this.message = message;
        this.periodNanos = periodNanos;
        this.scheduler = scheduler;
    }

    void start(long delayNanos) {
        nextDeadline = scheduler.nanoTime() + delayNanos;
        pending = scheduler.schedule(this, delayNanos);
    }

    @Override
    public void run() {
        if (cancelled) {
            return;
        }
        cell.deliverTimer(this);
        if (periodNanos > 0 && !cancelled) {
            nextDeadline += periodNanos;
            pending = scheduler.schedule(this, nextDeadline - scheduler.nanoTime());
        }
    }

    void cancel() {
        cancelled = true;
        Timeout timeout = pending;
        if (timeout != null) {
            timeout.cancel();
        }
    }

    boolean isCancelled() {
        return cancelled;
    }

    boolean isPeriodic() {
        return periodNanos > 0;
    }

    String key() {
        return key;
    }

    Object message() {
        return message;
    }
}
