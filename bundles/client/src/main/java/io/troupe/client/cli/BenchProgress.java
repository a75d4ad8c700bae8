package io.troupe.client.cli;

import java.util.Locale;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;

/**
 * The line a bench run prints on standard error every second while it runs, as {@code nats bench} and
 * RabbitMQ's PerfTest do:
 * <pre>
 *   troupe-client bench:   1s warm-up:     84211 requests/s, p50 612 us, p99 2.310 ms, errors 0
 *   troupe-client bench:   5s measuring:   97730 requests/s, p50 598 us, p99 1.870 ms, errors 2 (timeout 2)
 * </pre>
 * Requests/s counts the requests answered successfully since the previous line; p50 and p99 are those
 * of the phase so far (the warm-up's, then the measured window's, which the final report gives in
 * full); errors are counted by code over the whole run so far.
 *
 * <p><b>Threading:</b> one instance per run, on the bench's thread; reads {@link BenchResults} while
 * the connections record into it.
 */
final class BenchProgress {

    private final BenchResults results;
    private final long start;
    private final long measureFrom;
    private long previousAnswered;
    private long previousAt;

    /**
     * @param start       {@link System#nanoTime} when the run started
     * @param measureFrom {@link System#nanoTime} when the warm-up ends
     */
    BenchProgress(BenchResults results, long start, long measureFrom) {
        this.results = results;
        this.start = start;
        this.measureFrom = measureFrom;
        this.previousAt = start;
    }

    /** The line for the instant {@code now} ({@link System#nanoTime}), later than the previous one's. */
    String line(long now) {
        long answered = results.answered();
        long elapsed = Math.max(1, now - previousAt);
        double rate = (answered - previousAnswered) * (double) TimeUnit.SECONDS.toNanos(1) / elapsed;
        previousAnswered = answered;
        previousAt = now;
        boolean measuring = now - measureFrom >= 0;
        Histogram soFar = results.latenciesSoFar(measuring);
        long seconds = Math.round((now - start) / 1e9);
        return String.format(Locale.ROOT, "troupe-client bench: %3ds %-10s %7.0f requests/s, p50 %s, p99 %s, errors %s",
                seconds, measuring ? "measuring:" : "warm-up:", rate, BenchResults.latency(soFar, 50.0),
                BenchResults.latency(soFar, 99.0), results.errorSummary());
    }
}
