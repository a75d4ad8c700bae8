package io.troupe.distribution.longtier;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The samples of a soak, one per interval: the server's gauges after a full collection, the interval's
 * request rate and 99th-percentile latency, and what the test did during it (a kill, a plugin update), printed
 * as a table, written as CSV, and judged for upward trends ({@link Trend}).
 *
 * <p>Samples taken within {@code warmUpSeconds} of a server's start are shown but not judged (classes still
 * loading, caches filling); the latency of an interval with a kill in it is not judged either (its clients
 * were reconnecting).
 *
 * <p><b>Threading:</b> one test thread.
 */
public final class Series {

    /**
     * One sample.
     *
     * @param seconds      since the soak began
     * @param process      the server's pid
     * @param sinceStart   seconds since that server started
     * @param gauges       its figures after a full collection
     * @param latency      the interval's requests and p99
     * @param rate         requests acknowledged per second over the interval
     * @param events       what the test did during the interval ("kill", "update 2.0.0", ...), or empty
     */
    public record Sample(double seconds, long process, double sinceStart, ServerGauges.Reading gauges,
            LatencyWindow.Interval latency, double rate, String events) {

        boolean killedDuring() {
            return events.contains("kill");
        }
    }

    private final List<Sample> samples = new ArrayList<>();
    private final double warmUpSeconds;

    public Series(double warmUpSeconds) {
        this.warmUpSeconds = warmUpSeconds;
    }

    public void add(Sample sample) {
        samples.add(sample);
    }

    public List<Sample> samples() {
        return List.copyOf(samples);
    }

    /** The table, one line per sample. */
    public String table() {
        StringBuilder text = new StringBuilder(String.format("%8s %8s %10s %10s %8s %6s %10s %10s  %s%n", "time s",
                "pid", "heap MB", "meta MB", "threads", "fds", "p99 ms", "req/s", "during the interval"));
        for (Sample sample : samples) {
            text.append(String.format("%8.0f %8d %10.1f %10.1f %8d %6d %10.2f %10.0f  %s%s%n", sample.seconds(),
                    sample.process(), sample.gauges().heapBytes() / 1e6, sample.gauges().metaspaceBytes() / 1e6,
                    sample.gauges().threads(), sample.gauges().descriptors(), sample.latency().p99Micros() / 1e3,
                    sample.rate(), sample.events(), sample.sinceStart() < warmUpSeconds ? " (warm-up)" : ""));
        }
        return text.toString();
    }

    /** Writes the samples as CSV to {@code file}. */
    public void writeCsv(Path file) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("seconds,pid,since_start_s,heap_bytes,metaspace_bytes,threads,fds,requests,p99_us,rate,events");
        for (Sample sample : samples) {
            lines.add(String.format("%.1f,%d,%.1f,%d,%d,%d,%d,%d,%d,%.1f,\"%s\"", sample.seconds(), sample.process(),
                    sample.sinceStart(), sample.gauges().heapBytes(), sample.gauges().metaspaceBytes(),
                    sample.gauges().threads(), sample.gauges().descriptors(), sample.latency().count(),
                    sample.latency().p99Micros(), sample.rate(), sample.events()));
        }
        Files.write(file, lines, UTF_8);
    }

    /**
     * The trends of heap, metaspace, threads, file descriptors and p99, with their tolerances: heap 10 % of its
     * median (at least 8 MB: requests in flight move it by a few MB), metaspace 5 % (at least 2 MB), threads 3,
     * file descriptors 5, p99 50 % (at least 2 ms).
     */
    public List<Trend> trends() {
        List<Sample> steady = samples.stream().filter(sample -> sample.sinceStart() >= warmUpSeconds).toList();
        List<Sample> calm = steady.stream().filter(sample -> !sample.killedDuring()
                && sample.latency().count() > 0).toList();
        return List.of(
                trend("heap", steady, sample -> sample.gauges().heapBytes(), 0.10, 8e6),
                trend("metaspace", steady, sample -> sample.gauges().metaspaceBytes(), 0.05, 2e6),
                trend("threads", steady, sample -> sample.gauges().threads(), 0, 3),
                trend("fds", steady, sample -> sample.gauges().descriptors(), 0, 5),
                trend("p99 us", calm, sample -> sample.latency().p99Micros(), 0.5, 2000));
    }

    private static Trend trend(String metric, List<Sample> samples, ToDoubleFunction<Sample> value, double relative,
            double absolute) {
        List<Trend.Point> points = samples.stream()
                .map(sample -> new Trend.Point(sample.seconds(), sample.process(), value.applyAsDouble(sample)))
                .toList();
        return Trend.of(metric, points, relative, absolute);
    }
}
