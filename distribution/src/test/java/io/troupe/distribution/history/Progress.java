package io.troupe.distribution.history;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Bounded waiting for a workload to make progress: a count (acknowledged requests) grows by a step, checked
 * every 20 ms, never a fixed sleep, so that a test knows its load really ran between two faults.
 *
 * <p><b>Threading:</b> stateless; the calling thread waits.
 */
public final class Progress {

    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private Progress() {
    }

    /**
     * Returns once {@code count} has grown by {@code step} from now.
     *
     * @throws AssertionError naming {@code when} and the last {@code state} after {@code timeout}
     */
    public static void await(String when, LongSupplier count, long step, Duration timeout, Supplier<String> state) {
        long target = count.getAsLong() + step;
        long deadline = System.nanoTime() + timeout.toNanos();
        while (count.getAsLong() < target) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("no progress " + when + " within " + timeout + ": " + state.get());
            }
            LockSupport.parkNanos(POLL_NANOS);
        }
    }

    /** Both workloads acknowledge a step more. */
    public static void await(String when, CounterWorkload counter, long counterStep, ChatWorkload chat,
            long chatStep, Duration timeout) {
        await(when, () -> counter.tally().acknowledged(), counterStep, timeout, counter::toString);
        await(when, () -> chat.tally().acknowledged(), chatStep, timeout, chat::toString);
    }
}
