package io.troupe.distribution.longtier;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;

/**
 * Request latencies of one sampling interval, in a histogram of fixed buckets (microseconds, about 1.6 %
 * wide above 128 µs), so that millions of requests cost a few kilobytes: {@link #accept} records, and
 * {@link #drain()} returns the interval's count and 99th percentile and starts the next interval.
 *
 * <pre>
 *   bucket of v µs:  v < 128           -> v
 *                    2^e <= v < 2^e+1  -> 128 + (e - 7) * 64 + the 6 bits of v below its highest
 * </pre>
 *
 * <p><b>Threading:</b> {@link #accept} from any threads at once; {@link #drain()} from one thread. A record
 * racing a drain may count in either interval.
 */
public final class LatencyWindow implements LongConsumer {

    private static final int LINEAR = 128;
    private static final int SUB_BUCKETS = 64;
    /** Up to 2^40 µs (12 days): every latency fits. */
    private static final int BUCKETS = LINEAR + (40 - 7) * SUB_BUCKETS;

    private final AtomicReference<AtomicLongArray> current = new AtomicReference<>(new AtomicLongArray(BUCKETS));

    /**
     * One interval's figures.
     *
     * @param count     requests recorded
     * @param p99Micros the 99th percentile, in microseconds (the lower edge of its bucket); 0 when none
     */
    public record Interval(long count, long p99Micros) {
    }

    /** Records one latency, in nanoseconds. */
    @Override
    public void accept(long nanos) {
        current.get().incrementAndGet(bucket(Math.max(0, nanos / 1000)));
    }

    /** The figures since the last drain; the next interval starts empty. */
    public Interval drain() {
        AtomicLongArray counts = current.getAndSet(new AtomicLongArray(BUCKETS));
        long total = 0;
        for (int i = 0; i < BUCKETS; i++) {
            total += counts.get(i);
        }
        if (total == 0) {
            return new Interval(0, 0);
        }
        long rank = (long) Math.ceil(total * 0.99);
        long seen = 0;
        for (int i = 0; i < BUCKETS; i++) {
            seen += counts.get(i);
            if (seen >= rank) {
                return new Interval(total, lowerEdge(i));
            }
        }
        throw new IllegalStateException("unreachable: the counts sum to " + total);
    }

    static int bucket(long micros) {
        if (micros < LINEAR) {
            return (int) micros;
        }
        int exponent = 63 - Long.numberOfLeadingZeros(micros);
        if (exponent >= 40) {
            return BUCKETS - 1;
        }
        int mantissa = (int) (micros >>> (exponent - 6)) & (SUB_BUCKETS - 1);
        return LINEAR + (exponent - 7) * SUB_BUCKETS + mantissa;
    }

    static long lowerEdge(int bucket) {
        if (bucket < LINEAR) {
            return bucket;
        }
        int exponent = (bucket - LINEAR) / SUB_BUCKETS + 7;
        int mantissa = (bucket - LINEAR) % SUB_BUCKETS;
        return (1L << exponent) + ((long) mantissa << (exponent - 6));
    }
}
