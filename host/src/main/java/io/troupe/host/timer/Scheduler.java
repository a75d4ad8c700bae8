package io.troupe.host.timer;

/**
 * Runs short actions after a delay: the runtime's timer service. Actions must be quick and must not
 * block (typically they enqueue a message); they never run user code.
 *
 * <p><b>Threading:</b> every method from any thread.
 */
public interface Scheduler {

    /** Schedules {@code action} to run once, {@code delayNanos} from now. */
    Timeout schedule(Runnable action, long delayNanos);

    /** The scheduler's clock, in nanoseconds (monotonic, arbitrary origin). */
    long nanoTime();
}
