package io.troupe.host.actor;

import io.troupe.host.timer.Scheduler;
import io.troupe.host.timer.Timeout;

/**
 * The scheduler of a stress test's actor system, whose actors set no timers: asking for one is a mistake of
 * the test, refused loudly.
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
final class NoTimers implements Scheduler {

    @Override
    public Timeout schedule(Runnable action, long delayNanos) {
        throw new UnsupportedOperationException("the stress test's actors set no timers");
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }
}
