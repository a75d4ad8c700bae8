package io.troupe.server.tenant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.troupe.api.monitor.RequestLatency;

/**
 * {@link LatencyHistogram}: its fixed buckets, a bound belonging to its own bucket, recording without
 * allocating, and exact totals when threads record at once.
 *
 * <p><b>Threading:</b> JUnit's thread, and the recording threads of the concurrency test.
 */
class LatencyHistogramTest {

    @Test
    void theBucketsAreOneTwoAndFivePerDecadeFromTenMicrosecondsToFiftySeconds() {
        RequestLatency empty = new LatencyHistogram().read();
        assertEquals(21, empty.boundsNanos().size());
        assertEquals(10_000L, empty.boundsNanos().get(0));
        assertEquals(List.of(1_000_000L, 2_000_000L, 5_000_000L), empty.boundsNanos().subList(6, 9));
        assertEquals(50_000_000_000L, empty.boundsNanos().get(20));
        assertEquals(22, empty.counts().size());
        assertEquals(0, empty.count());
        assertEquals(1.0E-5, empty.boundSeconds(0));
        assertEquals(50.0, empty.boundSeconds(20));
    }

    @Test
    void aLatencyOnABoundCountsInThatBoundsBucketAndOneNanosecondMoreInTheNext() {
        assertEquals(0, LatencyHistogram.bucketOf(0));
        assertEquals(0, LatencyHistogram.bucketOf(10_000));
        assertEquals(1, LatencyHistogram.bucketOf(10_001));
        assertEquals(6, LatencyHistogram.bucketOf(1_000_000));
        assertEquals(7, LatencyHistogram.bucketOf(1_000_001));
        assertEquals(20, LatencyHistogram.bucketOf(50_000_000_000L));
        assertEquals(21, LatencyHistogram.bucketOf(50_000_000_001L), "above every bound: the +Inf bucket");
        assertEquals(21, LatencyHistogram.bucketOf(Long.MAX_VALUE));

        LatencyHistogram histogram = new LatencyHistogram();
        histogram.record(2_000_000);
        histogram.record(2_000_001);
        histogram.record(-5); // a clock step back counts as 0
        histogram.record(60_000_000_000L);
        RequestLatency latency = histogram.read();
        assertEquals(1, latency.counts().get(0));
        assertEquals(1, latency.counts().get(7), "2 ms is in (1 ms, 2 ms]");
        assertEquals(1, latency.counts().get(8), "2 ms + 1 ns is in (2 ms, 5 ms]");
        assertEquals(1, latency.counts().get(21));
        assertEquals(4, latency.count());
        assertEquals(2_000_000L + 2_000_001L + 60_000_000_000L, latency.sumNanos());
    }

    @Test
    void recordingAllocatesNothing() {
        assumeTrue(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean,
                "this JVM measures no thread's allocations");
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled(),
                "this JVM measures no thread's allocations");
        LatencyHistogram histogram = new LatencyHistogram();
        long thread = Thread.currentThread().getId();
        for (int i = 0; i < 100_000; i++) { // interpreted, then compiled
            histogram.record(i * 1_000L);
        }
        long before = threads.getThreadAllocatedBytes(thread);
        for (int i = 0; i < 1_000_000; i++) {
            histogram.record(i * 1_000L);
        }
        long allocated = threads.getThreadAllocatedBytes(thread) - before;
        assertTrue(allocated < 64 * 1024, "a million recordings allocated " + allocated + " bytes");
        assertEquals(1_100_000, histogram.read().count());
    }

    @Test
    void threadsRecordingAtOnceLoseNoCount() throws Exception {
        int threads = 4;
        int perThread = 250_000;
        LatencyHistogram histogram = new LatencyHistogram();
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < perThread; i++) {
                        histogram.record((i % 3) * 1_000_000L); // 0, 1 ms, 2 ms in turn
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> future : done) {
                future.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        RequestLatency latency = histogram.read();
        long[] expected = new long[22];
        long expectedSum = 0;
        for (int i = 0; i < perThread; i++) {
            long nanos = (i % 3) * 1_000_000L;
            expected[LatencyHistogram.bucketOf(nanos)] += threads;
            expectedSum += threads * nanos;
        }
        for (int bucket = 0; bucket < expected.length; bucket++) {
            assertEquals(expected[bucket], latency.counts().get(bucket), "bucket " + bucket);
        }
        assertEquals((long) threads * perThread, latency.count());
        assertEquals(expectedSum, latency.sumNanos());
        assertTrue(latency.quantileSeconds(0.99) <= 0.002, "p99 " + latency.quantileSeconds(0.99));
    }
}
