package io.troupe.itests;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Waits for a condition that the runtime makes true asynchronously (service tracking, actors
 * stopping), re-checking it every few milliseconds until a deadline. Never used where a reply or a
 * latch can be waited for instead.
 *
 * <p><b>Threading:</b> stateless; blocks the calling test thread only.
 */
final class Await {

    /** How long any condition in these tests may take before the test fails. */
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

    private static final long PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    private Await() {
    }

    /**
     * Returns as soon as {@code condition} holds; fails with {@code what} and the {@code state} seen
     * last if it still does not hold after {@code timeout}.
     */
    static void until(String what, Duration timeout, BooleanSupplier condition, Supplier<String> state) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after " + timeout + " waiting until " + what
                        + "; last seen: " + state.get());
            }
            LockSupport.parkNanos(PAUSE_NANOS);
            if (Thread.currentThread().isInterrupted()) {
                throw new AssertionError("interrupted while waiting until " + what);
            }
        }
    }

    /** {@link #until(String, Duration, BooleanSupplier, Supplier)} with {@link #DEFAULT_TIMEOUT}. */
    static void until(String what, BooleanSupplier condition, Supplier<String> state) {
        until(what, DEFAULT_TIMEOUT, condition, state);
    }
}
