package io.troupe.itests;

import java.util.Arrays;
import java.util.Collection;
import java.util.concurrent.TimeUnit;

/**
 * Request latencies in nanoseconds, and their percentiles.
 *
 * <p><b>Threading:</b> not thread-safe: each sender records its own, merged after it stopped.
 */
final class Latencies {

    private long[] nanos = new long[1 << 14];
    private int count;

    void record(long latencyNanos) {
        if (count == nanos.length) {
            nanos = Arrays.copyOf(nanos, count * 2);
        }
        nanos[count++] = latencyNanos;
    }

    static Latencies merge(Collection<Latencies> parts) {
        Latencies all = new Latencies();
        for (Latencies part : parts) {
            for (int i = 0; i < part.count; i++) {
                all.record(part.nanos[i]);
            }
        }
        return all;
    }

    int count() {
        return count;
    }

    /** The latency below which {@code percent} of the requests fall (nearest rank), in nanoseconds. */
    long percentile(double percent) {
        if (count == 0) {
            return 0;
        }
        long[] sorted = Arrays.copyOf(nanos, count);
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(percent / 100.0 * count);
        return sorted[Math.max(0, Math.min(count, rank) - 1)];
    }

    long max() {
        long max = 0;
        for (int i = 0; i < count; i++) {
            max = Math.max(max, nanos[i]);
        }
        return max;
    }

    /** {@code n=…, p50=… ms, p99=… ms, max=… ms}. */
    String summary() {
        return "n=" + count + ", p50=" + millis(percentile(50)) + " ms, p99=" + millis(percentile(99))
                + " ms, max=" + millis(max()) + " ms";
    }

    private static String millis(long nanos) {
        return String.format(java.util.Locale.ROOT, "%.3f", nanos / (double) TimeUnit.MILLISECONDS.toNanos(1));
    }
}
