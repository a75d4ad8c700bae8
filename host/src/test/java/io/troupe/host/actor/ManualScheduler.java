package io.troupe.host.actor;

import java.time.Duration;

import io.troupe.host.timer.Scheduler;
import io.troupe.host.timer.Timeout;
import io.troupe.host.timer.TimerQueue;

/**
 * A scheduler with a hand-moved clock: time passes only when the test calls {@link #advance}.
 *
 * <p><b>Threading:</b> the test thread only.
 */
final class ManualScheduler implements Scheduler {

    private final TimerQueue queue = new TimerQueue();
    private long now = 1_000_000_000L;

    @Override
    public Timeout schedule(Runnable action, long delayNanos) {
        Timeout timeout = queue.newTimeout(now + Math.max(0, delayNanos), action);
        queue.add(timeout);
        return timeout;
    }

    @Override
    public long nanoTime() {
        return now;
    }

    /** Moves the clock forward, running every timeout that falls due on the way, in order. */
    void advance(Duration duration) {
        long target = now + duration.toNanos();
        long next;
        while ((next = queue.nextDeadline()) != Long.MAX_VALUE && next - target <= 0) {
            now = Math.max(now, next);
            queue.runDue(now);
        }
        now = target;
    }
}
