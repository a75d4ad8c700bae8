package io.troupe.host.supervise;

import java.time.Duration;

/**
 * Counts failures in a sliding window of time: the restart intensity of {@link LoopFailures}. Keeps the times
 * of the last {@code max} failures in a ring.
 *
 * <p><b>Threading:</b> confined to one thread; the clock is passed in.
 */
final class FailureWindow {

    private final long[] times;
    private final long windowNanos;
    private int next;
    private int count;

    /** @param max how many failures the ring remembers: the count {@link #record} never exceeds */
    FailureWindow(int max, Duration window) {
        if (max < 1) {
            throw new IllegalArgumentException("a failure window needs room for at least one failure, got " + max);
        }
        this.times = new long[max];
        this.windowNanos = window.toNanos();
    }

    /** Records a failure at {@code nowNanos}; returns how many failures, this one included, fall within the window. */
    int record(long nowNanos) {
        times[next] = nowNanos;
        next = (next + 1) % times.length;
        count = Math.min(count + 1, times.length);
        int recent = 0;
        for (int i = 0; i < count; i++) {
            if (nowNanos - times[i] < windowNanos) {
                recent++;
            }
        }
        return recent;
    }

    int max() {
        return times.length;
    }

    long windowNanos() {
        return windowNanos;
    }
}
