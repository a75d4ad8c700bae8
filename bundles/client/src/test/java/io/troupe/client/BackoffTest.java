package io.troupe.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class BackoffTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void theCeilingStartsAtTheInitialDelayAndDoublesUpToTheCap() {
        Backoff backoff = new Backoff(100 * MS, 30_000 * MS, ceiling -> ceiling);

        List<Long> delays = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            delays.add(backoff.nextDelayNanos() / MS);
        }

        assertEquals(List.of(100L, 200L, 400L, 800L, 1600L, 3200L, 6400L, 12800L, 25600L, 30000L, 30000L, 30000L),
                delays);
        assertEquals(12, backoff.attempts());
    }

    @Test
    void fullJitterDrawsEachDelayBetweenZeroAndItsCeiling() {
        SplittableRandom random = new SplittableRandom(7);
        Backoff backoff = new Backoff(100 * MS, 30_000 * MS, ceiling -> random.nextLong(ceiling + 1));

        long sum = 0;
        for (int attempt = 0; attempt < 1000; attempt++) {
            long ceiling = backoff.ceilingNanos(attempt);
            long delay = backoff.nextDelayNanos();
            assertTrue(delay >= 0 && delay <= ceiling, delay + " outside [0, " + ceiling + "]");
            sum += delay;
        }
        // Spread, not pinned to either end: the mean of the capped draws is near half the cap.
        long mean = sum / 1000 / MS;
        assertTrue(mean > 10_000 && mean < 20_000, "mean " + mean + " ms");
    }

    @Test
    void aJitterOutsideTheCeilingIsClamped() {
        Backoff backoff = new Backoff(10 * MS, 20 * MS, ceiling -> ceiling * 5);

        assertEquals(10 * MS, backoff.nextDelayNanos());
        assertEquals(20 * MS, backoff.nextDelayNanos());
    }

    @Test
    void resetStartsTheSequenceOver() {
        Backoff backoff = new Backoff(100 * MS, 1000 * MS, ceiling -> ceiling);
        backoff.nextDelayNanos();
        backoff.nextDelayNanos();

        backoff.reset();

        assertEquals(0, backoff.attempts());
        assertEquals(100 * MS, backoff.nextDelayNanos());
    }

    @Test
    void theCeilingNeverOverflowsHoweverManyAttempts() {
        Backoff backoff = new Backoff(1, Long.MAX_VALUE >> 2, ceiling -> ceiling);

        assertEquals(Long.MAX_VALUE >> 2, backoff.ceilingNanos(1_000_000));
        assertEquals(1L << 61 > (Long.MAX_VALUE >> 2) ? Long.MAX_VALUE >> 2 : 1L << 61, backoff.ceilingNanos(61));
    }

    @Test
    void anInitialDelayAboveTheCapIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> new Backoff(2, 1, ceiling -> ceiling));
        assertThrows(IllegalArgumentException.class, () -> new Backoff(0, 1, ceiling -> ceiling));
    }
}
