package io.troupe.testsupport;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A UTC clock that only the test moves, for deterministic tests of code that reads the time and
 * waits (pass a pause that {@linkplain #advance advances} the clock instead of sleeping).
 *
 * <p><b>Threading:</b> the instant is volatile: the test moves the clock on one thread and the code
 * under test may read it on another.
 */
public final class ManualClock extends Clock {

    private volatile Instant now;

    public ManualClock(Instant start) {
        this.now = start;
    }

    /** Moves the clock on by {@code duration}. */
    public void advance(Duration duration) {
        now = now.plus(duration);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    /** Only UTC: the clock stands for instants. */
    @Override
    public Clock withZone(ZoneId zone) {
        if (!ZoneOffset.UTC.equals(zone)) {
            throw new UnsupportedOperationException("a ManualClock is UTC only");
        }
        return this;
    }

    @Override
    public Instant instant() {
        return now;
    }
}
