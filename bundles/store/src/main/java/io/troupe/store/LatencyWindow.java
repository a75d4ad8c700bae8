package io.troupe.store;

import java.util.Arrays;

/**
 * The latencies of the most recent {@value #CAPACITY} writes, from {@code write} to durable, and their
 * 99th percentile: a ring of samples, sorted on demand (the shell asks rarely; the writer records often).
 *
 * <p><b>Threading:</b> the writer thread records, any thread reads the percentile; both synchronise on
 * this object, the writer once per batch.
 */
final class LatencyWindow {

    static final int CAPACITY = 4096;

    private final long[] samples = new long[CAPACITY];
    private int next;
    private int size;

    /** Records the latencies {@code nanos[0..count)}. */
    synchronized void record(long[] nanos, int count) {
        for (int i = 0; i < count; i++) {
            samples[next] = nanos[i];
            next = (next + 1) % CAPACITY;
            size = Math.min(size + 1, CAPACITY);
        }
    }

    /** The 99th percentile of the recorded latencies (nearest rank), 0 before the first. */
    synchronized long p99() {
        if (size == 0) {
            return 0;
        }
        long[] sorted = Arrays.copyOf(samples, size);
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(0.99 * size);
        return sorted[Math.max(0, rank - 1)];
    }
}
