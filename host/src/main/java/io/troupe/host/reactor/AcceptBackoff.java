package io.troupe.host.reactor;

/**
 * One listener's failing accepts (typically EMFILE, "too many open files", where retrying at once would
 * spin the loop): how long to stop accepting, and the episode the failures belong to, so that it is
 * logged once when it starts and once when it ends instead of once per failure.
 *
 * <p>Pauses double from {@value #MIN_PAUSE_MILLIS} ms to {@value #MAX_PAUSE_MILLIS} ms. The episode starts
 * at the first failure after a success (or ever), counts the failures, and ends at the next successful
 * accept, which also resets the pause. Connections that arrive meanwhile wait in the listen backlog.
 *
 * <pre>
 *   accepting ──onFailure()──► failing (pause 50, 100, … 1000 ms; failures counted)
 *       ▲ started() true once          │
 *       └───────── onSuccess() ◄───────┘ returns the episode that ended: failures and duration
 * </pre>
 *
 * <p><b>Threading:</b> confined to the acceptor loop; the clock is passed in.
 */
final class AcceptBackoff {

    static final long MIN_PAUSE_MILLIS = 50;
    static final long MAX_PAUSE_MILLIS = 1000;

    /**
     * A failing stretch of a listener that ended.
     *
     * @param failures the accepts that failed
     * @param nanos    from the first failure to the success that ended it
     */
    record Episode(long failures, long nanos) {
    }

    private long pauseMillis;
    private long failures;
    private long sinceNanos;

    /** Records a failure at {@code nowNanos}; returns how long to pause accepting, in milliseconds. */
    long onFailure(long nowNanos) {
        if (failures == 0) {
            sinceNanos = nowNanos;
        }
        failures++;
        pauseMillis = pauseMillis == 0 ? MIN_PAUSE_MILLIS : Math.min(2 * pauseMillis, MAX_PAUSE_MILLIS);
        return pauseMillis;
    }

    /** Whether the failure just recorded started an episode: the one to log. */
    boolean started() {
        return failures == 1;
    }

    /**
     * An accept succeeded at {@code nowNanos}: the next failure pauses briefly again.
     *
     * @return the episode this success ended, or null when accepts were not failing
     */
    Episode onSuccess(long nowNanos) {
        pauseMillis = 0;
        if (failures == 0) {
            return null;
        }
        Episode ended = new Episode(failures, nowNanos - sinceNanos);
        failures = 0;
        return ended;
    }
}
