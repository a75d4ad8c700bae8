package io.troupe.shell;

import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import io.troupe.api.state.StoreStats;

/**
 * The {@code store} line of {@code troupe:stats}, from the {@link io.troupe.api.state.StateStore}'s
 * {@link StoreStats}, and the write rate, which the counters alone do not give: the writes since the
 * previous {@code stats} (when it was at least {@value #MIN_WINDOW_MILLIS} ms and at most
 * {@value #MAX_WINDOW_SECONDS} s ago), else over a window of {@value #MIN_WINDOW_MILLIS} ms measured now.
 *
 * <pre>
 * store         812.4 writes/s  48210 writes (3.0 MiB)  9120 syncs  write p99 1.8 ms  42 stored (2.1 KiB)
 * </pre>
 *
 * <p><b>Threading:</b> {@link #line} from any thread; the previous sample is guarded by this object.
 */
final class StoreStatsLine {

    static final long MIN_WINDOW_MILLIS = 500;
    static final long MAX_WINDOW_SECONDS = 300;

    /** Where the waiting for a window happens: the real clock in the shell, a manual one in tests. */
    interface Clock extends LongSupplier {
        /** Waits {@code nanos}. */
        void await(long nanos) throws InterruptedException;
    }

    static final Clock SYSTEM = new Clock() {
        @Override
        public long getAsLong() {
            return System.nanoTime();
        }

        @Override
        public void await(long nanos) throws InterruptedException {
            TimeUnit.NANOSECONDS.sleep(nanos);
        }
    };

    private final Clock clock;
    private long previousNanos;
    private long previousWrites = -1;

    StoreStatsLine(Clock clock) {
        this.clock = clock;
    }

    /**
     * The line for the store whose counters {@code stats} reads. An interrupt while the window is measured
     * ends the window early (the interrupt flag is set again).
     */
    synchronized String line(Supplier<StoreStats> stats) {
        long now = clock.getAsLong();
        StoreStats current = stats.get();
        long window = now - previousNanos;
        if (previousWrites < 0 || current.writes() < previousWrites
                || window < TimeUnit.MILLISECONDS.toNanos(MIN_WINDOW_MILLIS)
                || window > TimeUnit.SECONDS.toNanos(MAX_WINDOW_SECONDS)) {
            previousNanos = now;
            previousWrites = current.writes();
            try {
                clock.await(TimeUnit.MILLISECONDS.toNanos(MIN_WINDOW_MILLIS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            now = clock.getAsLong();
            current = stats.get();
            window = now - previousNanos;
        }
        double perSecond = (current.writes() - previousWrites) * 1e9 / Math.max(1, window);
        previousNanos = now;
        previousWrites = current.writes();
        return format(current, perSecond);
    }

    static String format(StoreStats stats, double writesPerSecond) {
        return "store         " + String.format(Locale.ROOT, "%.1f", writesPerSecond) + " writes/s  " + stats.writes()
                + " writes (" + size(stats.bytesWritten()) + ")  " + stats.syncs() + " syncs  write p99 "
                + String.format(Locale.ROOT, "%.1f", stats.writeNanosP99() / 1e6) + " ms  " + stats.storedStates()
                + " stored (" + size(stats.storedBytes()) + ")";
    }

    static String size(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        if (bytes < 1024 * 1024) {
            return String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0);
        }
        if (bytes < 1024L * 1024 * 1024) {
            return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024));
        }
        return String.format(Locale.ROOT, "%.1f GiB", bytes / (1024.0 * 1024 * 1024));
    }
}
