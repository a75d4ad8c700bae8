package io.troupe.cluster.state;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The latencies of the last {@value #SIZE} writes, for the 99th percentile of {@code stats}.
 *
 * <p><b>Threading:</b> {@link #record} from any thread without locks (two atomic operations; a slot may be
 * overwritten by a concurrent record, which only drops a sample); {@link #p99} from any thread, copies and
 * sorts the window.
 */
final class WriteLatency {

    static final int SIZE = 1024;

    private final AtomicLongArray nanos = new AtomicLongArray(SIZE);
    private final AtomicLong count = new AtomicLong();

    void record(long latencyNanos) {
        long index = count.getAndIncrement();
        nanos.lazySet((int) (index & (SIZE - 1)), latencyNanos);
    }

    /** The 99th percentile of the recent latencies, 0 before the first write. */
    long p99() {
        int n = (int) Math.min(count.get(), SIZE);
        if (n == 0) {
            return 0;
        }
        long[] copy = new long[n];
        for (int i = 0; i < n; i++) {
            copy[i] = nanos.get(i);
        }
        Arrays.sort(copy);
        return copy[Math.min(n - 1, (int) Math.ceil(n * 0.99) - 1)];
    }
}
