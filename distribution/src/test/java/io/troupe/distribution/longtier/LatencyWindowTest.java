package io.troupe.distribution.longtier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The latency histogram: buckets within 1.6 % of the value, the 99th percentile, and a fresh interval. */
class LatencyWindowTest {

    @Test
    void everyValueFallsInABucketWhoseLowerEdgeIsWithinOnePointSixPercentBelowIt() {
        for (long micros = 0; micros < 5_000_000; micros += 1 + micros / 50) {
            long edge = LatencyWindow.lowerEdge(LatencyWindow.bucket(micros));
            assertTrue(edge <= micros && micros - edge <= Math.max(0, micros * 0.016), micros + " -> " + edge);
        }
    }

    @Test
    void theNinetyNinthPercentileOfAnIntervalAndThenAnEmptyOne() {
        LatencyWindow window = new LatencyWindow();
        for (int i = 0; i < 990; i++) {
            window.accept(100_000); // 100 µs
        }
        for (int i = 0; i < 10; i++) {
            window.accept(50_000_000); // 50 ms
        }
        LatencyWindow.Interval interval = window.drain();
        assertEquals(1000, interval.count());
        assertEquals(100, interval.p99Micros());
        window.accept(50_000_000);
        long p99 = window.drain().p99Micros();
        assertTrue(p99 <= 50_000 && p99 > 49_000, "p99 " + p99);
        assertEquals(new LatencyWindow.Interval(0, 0), window.drain());
    }
}
