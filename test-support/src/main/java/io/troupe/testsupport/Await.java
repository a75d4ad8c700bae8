package io.troupe.testsupport;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Bounded waits for tests, so that a test never hangs and never sleeps:
 * <ul>
 * <li>{@link #result} and {@link #failure} wait for a future, the way to wait whenever the code under
 *     test offers one;</li>
 * <li>{@link #until} re-checks a condition every 5 ms until a deadline, for what a framework or a
 *     server makes true asynchronously with nothing to wait on (a configuration applied, a service
 *     tracked, a session released). Never use it where a reply, a future or a latch can be waited
 *     for instead.</li>
 * </ul>
 * Every failure is an {@link AssertionError} naming what was awaited and, for conditions, the state
 * seen last. Plain JDK types only, so that the class also runs inside a framework (in a Pax Exam
 * probe, or installed as the {@code io.troupe.testsupport} bundle).
 *
 * <p><b>Threading:</b> stateless; each method blocks the calling thread only. An interrupt while
 * waiting fails the wait (and keeps the thread's interrupt status).
 */
public final class Await {

    /** How long a future or a condition may take by default: long enough for loopback and a loaded machine. */
    public static final Duration TIMEOUT = Duration.ofSeconds(15);

    private static final long PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    private Await() {
    }

    /** The future's value, failing if it failed or took more than {@link #TIMEOUT}. */
    public static <T> T result(CompletionStage<T> future) throws InterruptedException {
        return result(future, TIMEOUT);
    }

    /** The future's value, failing if it failed or took more than {@code timeout}. */
    public static <T> T result(CompletionStage<T> future, Duration timeout) throws InterruptedException {
        try {
            return future.toCompletableFuture().get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError("expected a value, got " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new AssertionError("no result within " + timeout);
        }
    }

    /** The exception the future failed with, failing if it succeeded or took more than {@link #TIMEOUT}. */
    public static Throwable failure(CompletionStage<?> future) throws InterruptedException {
        CompletableFuture<?> completable = future.toCompletableFuture();
        try {
            Object value = completable.get(TIMEOUT.toNanos(), TimeUnit.NANOSECONDS);
            throw new AssertionError("expected a failure, got " + value);
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (TimeoutException e) {
            throw new AssertionError("no result within " + TIMEOUT);
        }
    }

    /**
     * Returns as soon as {@code condition} holds; fails with {@code what} and the {@code state} seen
     * last if it still does not hold after {@code timeout}.
     */
    public static void until(String what, Duration timeout, BooleanSupplier condition, Supplier<String> state) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after " + timeout + " waiting until " + what + "; last seen: "
                        + state.get());
            }
            LockSupport.parkNanos(PAUSE_NANOS);
            if (Thread.currentThread().isInterrupted()) {
                throw new AssertionError("interrupted while waiting until " + what);
            }
        }
    }

    /** {@link #until(String, Duration, BooleanSupplier, Supplier)} with {@link #TIMEOUT}. */
    public static void until(String what, BooleanSupplier condition, Supplier<String> state) {
        until(what, TIMEOUT, condition, state);
    }

    /** {@link #until(String, Duration, BooleanSupplier, Supplier)} with {@link #TIMEOUT} and no state to report. */
    public static void until(String what, BooleanSupplier condition) {
        until(what, TIMEOUT, condition, () -> "-");
    }
}
