package io.troupe.api.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * {@link RequestLatency}: its checks, and percentiles estimated as Prometheus's {@code histogram_quantile}
 * estimates them from the same buckets.
 *
 * <p><b>Threading:</b> JUnit's thread only.
 */
class RequestLatencyTest {

    /** Bounds 1 ms, 2 ms, 5 ms. */
    private static final List<Long> BOUNDS = List.of(1_000_000L, 2_000_000L, 5_000_000L);

    @Test
    void aPercentileIsInterpolatedInsideTheBucketHoldingItsRank() {
        // 10 requests up to 1 ms, 80 in (1, 2] ms, 10 in (2, 5] ms
        RequestLatency latency = new RequestLatency(BOUNDS, List.of(10L, 80L, 10L, 0L), 150_000_000L);

        assertEquals(100, latency.count());
        assertEquals(0.15, latency.sumSeconds(), 1e-12);
        // rank 50: 40 of the 80 in (1, 2] ms
        assertEquals(0.0015, latency.quantileSeconds(0.5), 1e-12);
        // rank 99: 9 of the 10 in (2, 5] ms
        assertEquals(0.0047, latency.quantileSeconds(0.99), 1e-12);
        // rank 5: half of the first bucket, which starts at 0
        assertEquals(0.0005, latency.quantileSeconds(0.05), 1e-12);
        assertEquals(0.005, latency.quantileSeconds(1.0), 1e-12);
    }

    @Test
    void aRankAboveEveryBoundGivesTheLastBoundAndNoRequestGivesNaN() {
        RequestLatency slow = new RequestLatency(BOUNDS, List.of(0L, 0L, 1L, 9L), 90_000_000_000L);
        assertEquals(0.005, slow.quantileSeconds(0.5), 1e-12);
        assertTrue(Double.isNaN(new RequestLatency(BOUNDS, List.of(0L, 0L, 0L, 0L), 0).quantileSeconds(0.99)));
        assertTrue(Double.isNaN(RequestLatency.none().quantileSeconds(0.5)));
        assertEquals(Double.POSITIVE_INFINITY, slow.boundSeconds(3));
        assertEquals(0.002, slow.boundSeconds(1), 1e-15);
    }

    @Test
    void twoReadingsGiveTheLatenciesOfTheTimeBetweenThem() {
        RequestLatency earlier = new RequestLatency(BOUNDS, List.of(10L, 80L, 10L, 0L), 150_000_000L);
        RequestLatency later = new RequestLatency(BOUNDS, List.of(10L, 80L, 30L, 1L), 300_000_000L);

        RequestLatency window = later.since(earlier);

        assertEquals(List.of(0L, 0L, 20L, 1L), window.counts());
        assertEquals(150_000_000L, window.sumNanos());
        assertEquals(0.005, window.quantileSeconds(0.99), 1e-12);
        IllegalArgumentException backwards = assertThrows(IllegalArgumentException.class,
                () -> earlier.since(later));
        assertTrue(backwards.getMessage().contains("bucket 2"), backwards.getMessage());
        assertThrows(IllegalArgumentException.class, () -> later.since(RequestLatency.none()));
    }

    @Test
    void badShapesAndQuantilesAreRefusedWithWhatIsWrong() {
        IllegalArgumentException counts = assertThrows(IllegalArgumentException.class,
                () -> new RequestLatency(BOUNDS, List.of(1L, 2L, 3L), 0));
        assertEquals("a latency histogram with 3 bounds needs 4 counts, not 3", counts.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> new RequestLatency(List.of(2L, 2L), List.of(0L, 0L, 0L), 0));
        assertThrows(IllegalArgumentException.class,
                () -> new RequestLatency(List.of(0L), List.of(0L, 0L), 0));
        assertThrows(IllegalArgumentException.class,
                () -> new RequestLatency(List.of(1L), List.of(-1L, 0L), 0));
        RequestLatency latency = new RequestLatency(BOUNDS, List.of(1L, 0L, 0L, 0L), 1);
        assertThrows(IllegalArgumentException.class, () -> latency.quantileSeconds(1.5));
        assertThrows(IllegalArgumentException.class, () -> latency.quantileSeconds(Double.NaN));
    }
}
