package io.troupe.client;

import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongUnaryOperator;

/**
 * Reconnect delays: exponential with full jitter. Attempt n (0-based) waits a delay drawn from
 * [0, min(cap, initial * 2^n)], so that clients dropped together do not come back together:
 * with the defaults the ceilings are 100 ms, 200 ms, 400 ms, ... 25.6 s, then 30 s for every
 * later attempt. A successful connection {@linkplain #reset() resets} the sequence.
 *
 * <p><b>Threading:</b> not thread-safe; confined to the client's loop thread.
 */
final class Backoff {

    /** Draws the delay from [0, ceiling]: full jitter. */
    static final LongUnaryOperator FULL_JITTER = ceiling -> ThreadLocalRandom.current().nextLong(ceiling + 1);

    private final long initialNanos;
    private final long capNanos;
    private final LongUnaryOperator jitter;
    private int failures;

    /**
     * @param jitter given a ceiling, returns a delay in [0, ceiling]
     * @throws IllegalArgumentException unless 0 &lt; initial &lt;= cap
     */
    Backoff(long initialNanos, long capNanos, LongUnaryOperator jitter) {
        if (initialNanos <= 0 || capNanos < initialNanos) {
            throw new IllegalArgumentException("backoff needs 0 < initial <= cap: " + initialNanos + ", " + capNanos);
        }
        this.initialNanos = initialNanos;
        this.capNanos = capNanos;
        this.jitter = jitter;
    }

    /** The upper bound of the delay before attempt {@code failures} (0-based). */
    long ceilingNanos(int failures) {
        // initial << n overflows past 62 bits; the cap is reached long before.
        if (failures >= Long.numberOfLeadingZeros(initialNanos) - 1) {
            return capNanos;
        }
        return Math.min(capNanos, initialNanos << failures);
    }

    /** The delay before the next attempt, counting one more failure. */
    long nextDelayNanos() {
        long ceiling = ceilingNanos(failures);
        failures++;
        long delay = jitter.applyAsLong(ceiling);
        return Math.max(0, Math.min(ceiling, delay));
    }

    /** How many delays were drawn since the last reset: the number of the coming attempt. */
    int attempts() {
        return failures;
    }

    void reset() {
        failures = 0;
    }
}
