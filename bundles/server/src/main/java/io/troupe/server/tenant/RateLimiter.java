package io.troupe.server.tenant;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * A token bucket of {@code perSecond} tokens that holds at most one second's worth, refilled
 * continuously. It starts full. One limiter counts requests (one token each), another bytes (one
 * token per byte of a frame).
 *
 * <p>Kept as one number, the time at which the bucket would be full again (the "theoretical arrival
 * time" of the generic cell rate algorithm): taking {@code n} tokens moves it {@code n} intervals
 * ({@code n * 1 s / perSecond}, rounded down to the nanosecond) into the future. Tokens are granted
 * while there is room for one more token, that is while that time stays within {@code perSecond - 1}
 * intervals of now; a grant of many tokens (a large frame) may then run the bucket into debt, which
 * the next grants wait out. Equivalent to counting tokens, with no refill arithmetic and one
 * compare-and-set per grant. The burst is exactly {@code perSecond} single tokens; the rounding makes
 * the sustained rate at most 0.1 % higher up to a million per second, and makes the burst of very
 * high rates (above ten million per second) smaller than a second's worth, never the sustained rate.
 *
 * <pre>
 *   now        fullAt             now + perSecond * interval (about 1 s)
 *   |----------|------------------|         tokens left = (now + burst - fullAt) / interval
 *              +n intervals per grant        granted while fullAt + interval &lt;= now + burst
 * </pre>
 *
 * <p><b>Threading:</b> lock-free; any thread, concurrently (every IO loop serving the tenant).
 */
public final class RateLimiter {

    /** The largest rate: one token per nanosecond. */
    public static final int MAX_RATE = 1_000_000_000;

    /** The most tokens one grant may take (a frame's bytes are at most 2 GiB). */
    public static final long MAX_TOKENS = Integer.MAX_VALUE;

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
        return tryAcquire(1);
    }

    /**
     * Takes {@code tokens} tokens if the bucket has room for one at least; never blocks. A grant of more
     * tokens than the bucket holds leaves it in debt for the time they take at the rate.
     *
     * @param tokens 1 to {@value #MAX_TOKENS}
     */
    public boolean tryAcquire(long tokens) {
        if (tokens < 1 || tokens > MAX_TOKENS) {
            throw new IllegalArgumentException("tokens must be from 1 to " + MAX_TOKENS + ": " + tokens);
        }
        long cost = tokens == 1 ? intervalNanos : tokens * SECOND_NANOS / perSecond;
        long now = nanoClock.getAsLong();
        while (true) {
            long current = fullAt.get();
            long start = current - now < 0 ? now : current; // a bucket that is full stays full
            if (start + intervalNanos - now > burstNanos) {
                return false;
            }
            if (fullAt.compareAndSet(current, start + cost)) {
                return true;
            }
        }
    }

    /** How long until a token can be taken, from now: 0 when one can be taken now. Any thread. */
    public long nanosUntilAvailable() {
        long wait = fullAt.get() + intervalNanos - burstNanos - nanoClock.getAsLong();
        return Math.max(0, wait);
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
