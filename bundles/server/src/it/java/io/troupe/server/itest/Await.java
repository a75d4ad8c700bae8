package io.troupe.server.itest;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Waits, bounded, for a condition that the framework or the server makes true asynchronously
 * (a configuration applied, a session released), checking it every few milliseconds. Used only where
 * no frame, latch or future can be waited for instead.
 *
 * <p><b>Threading:</b> stateless; blocks the calling test thread only.
 */
final class Await {

    /** How long any condition may take before the test fails. */
    static final Duration TIMEOUT = Duration.ofSeconds(15);

    private static final long PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    private Await() {
    }

    /** Returns once {@code condition} holds; fails naming {@code what} and the last {@code state} after {@link #TIMEOUT}. */
    static void until(String what, BooleanSupplier condition, Supplier<String> state) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after " + TIMEOUT + " waiting until " + what + "; last seen: "
                        + state.get());
            }
            LockSupport.parkNanos(PAUSE_NANOS);
            if (Thread.currentThread().isInterrupted()) {
                throw new AssertionError("interrupted while waiting until " + what);
            }
        }
    }

    /** {@link #until(String, BooleanSupplier, Supplier)} without a state to report. */
    static void until(String what, BooleanSupplier condition) {
        until(what, condition, () -> "-");
    }
}
