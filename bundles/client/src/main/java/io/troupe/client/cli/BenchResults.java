package io.troupe.client.cli;

import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * What a bench run measured: the latency of each request answered inside the measured window, in
 * an HdrHistogram (nanoseconds, 3 significant digits), and failures by kind over the whole run.
 *
 * <p>The report is one {@code key: value} line each, in a fixed order, for people and scripts:
 * <pre>
 *   target: demo@127.0.0.1:7878 echo
 *   connections: 64
 *   pipeline: 16
 *   rate: max
 *   size: 64 bytes
 *   payload: random
 *   warmup: 2.000 s
 *   duration: 10.000 s
 *   requests: 1234567
 *   throughput: 123456.7 requests/s
 *   latency p50: 412 us
 *   latency p99: 1.350 ms
 *   latency p99.9: 2.870 ms
 *   latency max: 9.210 ms
 *   errors: 3 (mailbox.full 2, timeout 1)
 * </pre>
 * The rate is {@code max} (every pipeline kept full) or the {@code --rate} asked for; throughput is what
 * was answered. The payload is {@code random} (new bytes for each request), {@code text} ({@code --payload}) or
 * {@code file F} ({@code --payload-file}). Latencies below 1 ms are printed in whole microseconds ({@code us}, ASCII so that any terminal
 * shows it), up to 1 s in milliseconds, beyond in seconds; {@code n/a} when nothing was measured.
 * Error kinds are the server's error codes, {@code timeout}, {@code connection.lost} and
 * {@code mismatch} (an echo reply that differs from its request).
 *
 * <p>Latencies answered during the warm-up go to a histogram of their own, which only the progress
 * lines ({@link BenchProgress}) show.
 *
 * <p><b>Threading:</b> the {@code record} methods from any threads at once, and the progress getters
 * meanwhile; {@link #print} once they have stopped.
 */
final class BenchResults {

    static final String TIMEOUT = "timeout";
    static final String CONNECTION_LOST = "connection.lost";
    static final String MISMATCH = "mismatch";

    private final ConcurrentHistogram latencies = new ConcurrentHistogram(3);
    private final ConcurrentHistogram warmUpLatencies = new ConcurrentHistogram(3);
    private final LongAdder answered = new LongAdder();
    private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();

    /** A request answered inside the measured window took {@code nanos}. */
    void recordLatency(long nanos) {
        latencies.recordValue(Math.max(1, nanos));
        answered.increment();
    }

    /** A request answered during the warm-up took {@code nanos}. */
    void recordWarmUpLatency(long nanos) {
        warmUpLatencies.recordValue(Math.max(1, nanos));
        answered.increment();
    }

    /** Requests answered successfully so far, warm-up included. */
    long answered() {
        return answered.sum();
    }

    /** A copy of the latencies recorded so far in the measured window, or in the warm-up. */
    Histogram latenciesSoFar(boolean measured) {
        return (measured ? latencies : warmUpLatencies).copy();
    }

    void recordError(String kind) {
        errors.computeIfAbsent(kind, k -> new LongAdder()).increment();
    }

    long errorCount() {
        return errors.values().stream().mapToLong(LongAdder::sum).sum();
    }

    long requests() {
        return latencies.getTotalCount();
    }

    void print(PrintStream out, ServerTarget target, BenchOptions options) {
        Histogram measured = latencies.copy();
        long count = measured.getTotalCount();
        double seconds = options.duration().toNanos() / 1e9;
        out.println("target: " + target.tenant() + "@" + target.address() + " " + options.name());
        out.println("connections: " + options.connections());
        out.println("pipeline: " + options.pipeline());
        out.println("rate: " + (options.rate() == 0 ? "max" : options.rate() + " requests/s"));
        out.println("size: " + options.payload().size() + " bytes");
        out.println("payload: " + options.payload().origin());
        out.println("warmup: " + seconds(options.warmup().toNanos()));
        out.println("duration: " + seconds(options.duration().toNanos()));
        out.println("requests: " + count);
        out.println("throughput: " + String.format(Locale.ROOT, "%.1f", count / seconds) + " requests/s");
        out.println("latency p50: " + latency(measured, 50.0));
        out.println("latency p99: " + latency(measured, 99.0));
        out.println("latency p99.9: " + latency(measured, 99.9));
        out.println("latency max: " + (count == 0 ? "n/a" : duration(measured.getMaxValue())));
        out.println("errors: " + errorSummary());
        out.flush();
    }

    /** {@code 0}, or {@code 3 (mailbox.full 2, timeout 1)}. */
    String errorSummary() {
        long total = errorCount();
        if (total == 0) {
            return "0";
        }
        StringBuilder summary = new StringBuilder().append(total).append(" (");
        Map<String, LongAdder> sorted = new TreeMap<>(errors);
        String separator = "";
        for (Map.Entry<String, LongAdder> kind : sorted.entrySet()) {
            summary.append(separator).append(kind.getKey()).append(' ').append(kind.getValue().sum());
            separator = ", ";
        }
        return summary.append(')').toString();
    }

    static String latency(Histogram histogram, double percentile) {
        return histogram.getTotalCount() == 0 ? "n/a" : duration(histogram.getValueAtPercentile(percentile));
    }

    /** 412 us, 1.350 ms, 2.000 s. */
    static String duration(long nanos) {
        if (nanos < TimeUnit.MILLISECONDS.toNanos(1)) {
            return (nanos + 500) / 1000 + " us";
        }
        if (nanos < TimeUnit.SECONDS.toNanos(1)) {
            return String.format(Locale.ROOT, "%.3f ms", nanos / 1e6);
        }
        return seconds(nanos);
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.3f s", nanos / 1e9);
    }
}
