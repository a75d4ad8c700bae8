package io.troupe.host.reactor;

import java.util.concurrent.TimeUnit;

/**
 * How long a listener stops accepting after {@code accept} failed (typically EMFILE, "too many open
 * files", where retrying at once would spin the loop), and whether to log the failure: pauses double
 * from {@value #MIN_PAUSE_MILLIS} ms to {@value #MAX_PAUSE_MILLIS} ms and reset after a successful
 * accept; at most one log line per {@value #LOG_INTERVAL_SECONDS} s, counting the failures in between.
 *
 * <p><b>Threading:</b> confined to the acceptor loop; the clock is passed in.
 */
final class AcceptBackoff {

    static final long MIN_PAUSE_MILLIS = 50;
    static final long MAX_PAUSE_MILLIS = 1000;
    static final long LOG_INTERVAL_SECONDS = 10;

    private static final long LOG_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(LOG_INTERVAL_SECONDS);

    private long pauseMillis;
    private boolean logged;
    private long lastLogNanos;
    private int suppressed;

    /** Records a failure; returns how long to pause accepting, in milliseconds. */
    long onFailure() {
        pauseMillis = pauseMillis == 0 ? MIN_PAUSE_MILLIS : Math.min(2 * pauseMillis, MAX_PAUSE_MILLIS);
        return pauseMillis;
    }

    /** An accept succeeded: the next failure pauses briefly again. */
    void onSuccess() {
        pauseMillis = 0;
    }

    /**
     * Whether the failure just recorded should be logged at {@code nowNanos}; when not, it is counted
     * for the next line.
     */
    boolean shouldLog(long nowNanos) {
        if (!logged || nowNanos - lastLogNanos >= LOG_INTERVAL_NANOS) {
            logged = true;
            lastLogNanos = nowNanos;
            return true;
        }
        suppressed++;
        return false;
    }

    /** Failures not logged since the last line that was; resets the count. */
    int takeSuppressed() {
        int count = suppressed;
        suppressed = 0;
        return count;
    }
}
