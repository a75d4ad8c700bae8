package io.troupe.benchmarks.net;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one {@code troupe-client bench} run reported: requests/s, latency percentiles, errors.
 *
 * <p><b>Threading:</b> immutable; any thread.
 *
 * @param requestsPerSecond throughput over the measured time
 * @param p50Nanos          median latency
 * @param p99Nanos          99th percentile
 * @param p999Nanos         99.9th percentile
 * @param errors            requests that failed
 */
public record BenchResult(double requestsPerSecond, long p50Nanos, long p99Nanos, long p999Nanos, long errors) {

    private static final Pattern THROUGHPUT = Pattern.compile("throughput: ([0-9.]+) requests/s");
    private static final Pattern LATENCY = Pattern.compile("latency (p50|p99|p99\\.9): ([0-9.]+) (us|ms|s)");
    private static final Pattern ERRORS = Pattern.compile("errors: (\\d+).*");

    /**
     * Reads the report lines of {@code troupe-client bench} ({@code throughput: ... requests/s},
     * {@code latency p50: 80 us}, ..., {@code errors: 0}).
     *
     * @throws IllegalArgumentException when a value is missing
     */
    static BenchResult parse(List<String> lines) {
        Double throughput = null;
        long p50 = -1;
        long p99 = -1;
        long p999 = -1;
        Long errors = null;
        for (String line : lines) {
            Matcher m;
            if ((m = THROUGHPUT.matcher(line)).matches()) {
                throughput = Double.parseDouble(m.group(1));
            } else if ((m = LATENCY.matcher(line)).matches()) {
                long nanos = toNanos(Double.parseDouble(m.group(2)), m.group(3));
                switch (m.group(1)) {
                    case "p50" -> p50 = nanos;
                    case "p99" -> p99 = nanos;
                    default -> p999 = nanos;
                }
            } else if ((m = ERRORS.matcher(line)).matches()) {
                errors = Long.parseLong(m.group(1));
            }
        }
        if (throughput == null || p50 < 0 || p99 < 0 || p999 < 0 || errors == null) {
            throw new IllegalArgumentException("incomplete bench report:\n" + String.join("\n", lines));
        }
        return new BenchResult(throughput, p50, p99, p999, errors);
    }

    /** {@code 0.081 ms}. */
    public static String millis(long nanos) {
        return String.format(Locale.ROOT, "%.3f ms", nanos / 1e6);
    }

    private static long toNanos(double value, String unit) {
        return Math.round(switch (unit) {
            case "us" -> value * 1e3;
            case "ms" -> value * 1e6;
            default -> value * 1e9;
        });
    }
}
