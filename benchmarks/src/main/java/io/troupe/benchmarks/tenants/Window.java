package io.troupe.benchmarks.tenants;

import java.time.Duration;

/**
 * The times of one phase on {@link System#nanoTime()}: load starts at once, is measured from
 * {@code measureFrom} (after the warm-up) and stops at {@code measureUntil}.
 *
 * <p><b>Threading:</b> immutable; any thread.
 *
 * @param measureFrom  the start of the measured window
 * @param measureUntil its end, when the load stops
 */
record Window(long measureFrom, long measureUntil) {

    /** A window that opens {@code warmup} from now and lasts {@code duration}. */
    static Window fromNow(Duration warmup, Duration duration) {
        long from = System.nanoTime() + warmup.toNanos();
        return new Window(from, from + duration.toNanos());
    }

    /** Whether {@code nanoTime} falls in the measured window. */
    boolean measures(long nanoTime) {
        return nanoTime - measureFrom >= 0 && nanoTime - measureUntil < 0;
    }

    /** Whether the load should have stopped at {@code nanoTime}. */
    boolean isOver(long nanoTime) {
        return nanoTime - measureUntil >= 0;
    }

    /** The measured window's length in seconds. */
    double seconds() {
        return (measureUntil - measureFrom) / 1e9;
    }
}
