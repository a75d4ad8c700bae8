package io.troupe.server.tenant;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.LongStream;

import io.troupe.api.monitor.RequestLatency;

/**
 * A tenant's request latencies as a histogram with fixed log-scale buckets: 1, 2 and 5 per decade from
 * 10 µs to 50 s ({@link #BOUNDS_NANOS}), and one bucket above. The session that answers a REQUEST records
 * its latency once; {@link #read()} turns the counts into a {@link RequestLatency} for
 * {@link io.troupe.api.monitor.ServerStats} at scrape time, so nothing is counted twice.
 *
 * <pre>
 *   record(nanos):  bucket = first bound &gt;= nanos (binary search over 21 longs)
 *                   counts[bucket].increment()   sum.add(nanos)      (LongAdder: striped, no lock)
 *   read():         counts[i].sum() ... , sum.sum()                  (any thread, racy by a few requests)
 * </pre>
 *
 * <p>A recording allocates nothing (a {@link LongAdder} allocates its stripes once, the first times
 * threads contend on it) and takes no lock. A read may see a request in its bucket and not yet in the sum,
 * or the reverse; the counts themselves are never lost.
 *
 * <p><b>Threading:</b> {@link #record} from any thread, concurrently (the worker that completed an ask, or
 * the session's IO loop for a timeout); {@link #read} from any thread.
 */
public final class LatencyHistogram {

    /** The buckets' upper bounds, in nanoseconds: 10, 20, 50, 100, 200, 500 µs ... 10, 20, 50 s. */
    static final long[] BOUNDS_NANOS = bounds(10_000L, 7);

    private static final List<Long> BOUNDS = LongStream.of(BOUNDS_NANOS).boxed().toList();

    private final LongAdder[] counts = new LongAdder[BOUNDS_NANOS.length + 1];
    private final LongAdder sumNanos = new LongAdder();

    public LatencyHistogram() {
        for (int i = 0; i < counts.length; i++) {
            counts[i] = new LongAdder();
        }
    }

    /** Counts one request that took {@code nanos}; a negative time (a clock step) counts as 0. */
    public void record(long nanos) {
        long latency = Math.max(0, nanos);
        counts[bucketOf(latency)].increment();
        sumNanos.add(latency);
    }

    /** The counts now. */
    public RequestLatency read() {
        Long[] now = new Long[counts.length];
        for (int i = 0; i < counts.length; i++) {
            now[i] = counts[i].sum();
        }
        return new RequestLatency(BOUNDS, List.of(now), sumNanos.sum());
    }

    /** The index of the bucket counting {@code nanos}: the first bound at or above it, else the last bucket. */
    static int bucketOf(long nanos) {
        int found = Arrays.binarySearch(BOUNDS_NANOS, nanos);
        return found >= 0 ? found : -found - 1;
    }

    /** 1, 2 and 5 times each power of ten from {@code first} on, for {@code decades} decades. */
    private static long[] bounds(long first, int decades) {
        long[] bounds = new long[3 * decades];
        long decade = first;
        for (int i = 0; i < decades; i++) {
            bounds[3 * i] = decade;
            bounds[3 * i + 1] = 2 * decade;
            bounds[3 * i + 2] = 5 * decade;
            decade *= 10;
        }
        return bounds;
    }
}
