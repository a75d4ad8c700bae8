package io.troupe.benchmarks.net;

import java.io.IOException;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a server uses during a bench's measured window, and only then: its CPU time and the bytes its
 * threads allocate ({@link ServerUsage}). Started when the load generator says its connections are up
 * (its {@code warming up} line), it reads the server's usage when the warm-up ends and again when the
 * measured time ends, from a thread of its own that sleeps in between (a harness's timing, not a
 * test's wait). The client's start-up and the server's warm-up stay out.
 *
 * <p><b>Threading:</b> {@link #start} from any thread, once (later calls do nothing); {@link #cpuNanos}
 * and {@link #allocatedBytes} from the suite thread once the bench has ended.
 */
final class UsageWindow {

    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m)?");

    private final Supplier<ServerUsage> usage;
    private final long warmupNanos;
    private final long durationNanos;
    private final AtomicBoolean started = new AtomicBoolean();
    private final CountDownLatch sampled = new CountDownLatch(1);
    private volatile ServerUsage atStart;
    private volatile ServerUsage atEnd;
    private volatile RuntimeException failure;

    /**
     * @param usage    what the server has used so far
     * @param warmup   as troupe-client takes it: {@code 3s}, {@code 500ms}
     * @param duration likewise
     */
    UsageWindow(Supplier<ServerUsage> usage, String warmup, String duration) {
        this.usage = usage;
        this.warmupNanos = nanos(warmup);
        this.durationNanos = nanos(duration);
    }

    /** The load generator's connections are up: its warm-up starts now. */
    void start() {
        if (!started.compareAndSet(false, true)) {
            return;
        }
        long begin = System.nanoTime();
        Thread sampler = new Thread(() -> {
            try {
                sleepUntil(begin + warmupNanos);
                atStart = usage.get();
                sleepUntil(begin + warmupNanos + durationNanos);
                atEnd = usage.get();
            } catch (RuntimeException e) {
                failure = e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                sampled.countDown();
            }
        }, "usage-window");
        sampler.setDaemon(true);
        sampler.start();
    }

    /** The measured window's length in seconds. */
    double seconds() {
        return durationNanos / 1e9;
    }

    /**
     * The server's CPU time in the measured window.
     *
     * @throws IOException when the window never started (no {@code warming up} line) or was not sampled
     */
    long cpuNanos() throws IOException, InterruptedException {
        awaitSampled();
        return atEnd.cpuNanos() - atStart.cpuNanos();
    }

    /**
     * The bytes the server's threads allocated in the measured window, or -1 when they could not be read.
     *
     * @throws IOException when the window never started (no {@code warming up} line) or was not sampled
     */
    long allocatedBytes() throws IOException, InterruptedException {
        awaitSampled();
        return atEnd.allocatedSince(atStart);
    }

    private void awaitSampled() throws IOException, InterruptedException {
        if (!started.get()) {
            throw new IOException("the load generator never said it was warming up: no measured window");
        }
        if (!sampled.await(30, TimeUnit.SECONDS) || atEnd == null) {
            throw new IOException("the server's usage was not sampled" + (failure == null ? "" : ": " + failure));
        }
    }

    private static void sleepUntil(long deadline) throws InterruptedException {
        for (long left = deadline - System.nanoTime(); left > 0; left = deadline - System.nanoTime()) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
    }

    /** {@code 3s}, {@code 500ms}, {@code 1.5s}, {@code 2m}, or a bare number of seconds, in nanoseconds. */
    static long nanos(String duration) {
        Matcher m = DURATION.matcher(duration.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("not a duration such as 3s or 500ms: '" + duration + "'");
        }
        double amount = Double.parseDouble(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        double seconds = switch (unit) {
            case "ms" -> amount / 1000;
            case "m" -> amount * 60;
            default -> amount;
        };
        return Math.round(seconds * 1e9);
    }
}
