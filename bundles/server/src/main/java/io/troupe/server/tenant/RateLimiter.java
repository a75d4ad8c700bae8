package io.troupe.server.tenant;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * A token bucket of {@code perSecond} tokens that holds at most one second's worth, refilled
 * continuously. It starts full.
 *
 * <p>Kept as one number, the time at which the bucket would be full again (the "theoretical arrival
 * time" of the generic cell rate algorithm): each token moves it one interval ({@code 1 s / perSecond},
 * rounded down to the nanosecond) into the future, and a token is granted while that stays within
 * {@code perSecond} intervals of now. Equivalent to counting tokens, with no refill arithmetic and
 * one compare-and-set per grant. The burst is exactly {@code perSecond}; the rounding makes the
 * sustained rate at most 0.1 % higher (at the largest rate, {@value #MAX_RATE} per second).
 *
 * <pre>
 *   now        fullAt             now + perSecond * interval (about 1 s)
 *   |----------|------------------|         tokens left = (now + burst - fullAt) / interval
 *              +interval per grant           granted while fullAt + interval &lt;= now + burst
 * </pre>
 *
 * <p><b>Threading:</b> lock-free; any thread, concurrently (every IO loop serving the tenant).
 */
public final class RateLimiter {

    /** The largest rate: one token per microsecond. */
    public static final int MAX_RATE = 1_000_000;

    private static final long SECOND_NANOS = 1_000_000_000L;

    private final int perSecond;
    private final long intervalNanos;
    private final long burstNanos;
    private final LongSupplier nanoClock;
    private final AtomicLong fullAt;

    /**
     * @param perSecond tokens per second, 1 to {@value #MAX_RATE}
     * @param nanoClock a monotonic clock in nanoseconds, such as {@code System::nanoTime}
     */
    public RateLimiter(int perSecond, LongSupplier nanoClock) {
        if (perSecond < 1 || perSecond > MAX_RATE) {
            throw new IllegalArgumentException("perSecond must be between 1 and " + MAX_RATE + ": " + perSecond);
        }
        this.perSecond = perSecond;
        this.intervalNanos = SECOND_NANOS / perSecond;
        this.burstNanos = intervalNanos * perSecond;
        this.nanoClock = nanoClock;
        this.fullAt = new AtomicLong(nanoClock.getAsLong());
    }

    /** Takes one token if there is one; never blocks. */
    public boolean tryAcquire() {
        long now = nanoClock.getAsLong();
        while (true) {
            long current = fullAt.get();
            long start = current - now < 0 ? now : current; // a bucket that is full stays full
            long next = start + intervalNanos;
            if (next - now > burstNanos) {
                return false;
            }
            if (fullAt.compareAndSet(current, next)) {
                return true;
            }
        }
    }

    /** The configured rate. */
    public int perSecond() {
        return perSecond;
    }

    @Override
    public String toString() {
        return "RateLimiter[" + perSecond + "/s]";
    }
}
