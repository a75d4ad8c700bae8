package io.troupe.benchmarks;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one {@link LoggerBenchmark} fork left in its file: the calls made, the message lines found,
 * the records the logger itself counted as dropped, and the rest, {@link #lost()}: records neither
 * written nor counted. Printed as
 * {@code [troupe] calls=8717768 lines=8717768 dropped=0 lost=0 benchmark=...throughput1Thread}.
 *
 * <p>Threading: immutable.
 *
 * @param benchmark the benchmark's full name
 * @param impl      the implementation, as in {@link LoggerBenchmark#impl}
 */
public record LineCount(String benchmark, String impl, long calls, long lines, long dropped) {

    /** The system property naming the file that {@link LoggerBenchmark} appends its counts to. */
    public static final String REPORT_PROPERTY = "bench.logger.report";

    private static final Pattern LINE = Pattern.compile(
            "\\[(\\w+)] calls=(\\d+) lines=(\\d+) dropped=(\\d+) lost=(-?\\d+) benchmark=(\\S+)");

    /** Records neither written nor counted as dropped. */
    public long lost() {
        return calls - lines - dropped;
    }

    /** {@code lost} as a share of the calls, 0 to 1. */
    public double lostShare() {
        return calls == 0 ? 0 : (double) lost() / calls;
    }

    /** The printed form read back; null if {@code line} is not one. */
    public static LineCount parse(String line) {
        Matcher m = LINE.matcher(line.trim());
        if (!m.matches()) {
            return null;
        }
        return new LineCount(m.group(6), m.group(1), Long.parseLong(m.group(2)), Long.parseLong(m.group(3)),
                Long.parseLong(m.group(4)));
    }

    @Override
    public String toString() {
        return "[" + impl + "] calls=" + calls + " lines=" + lines + " dropped=" + dropped + " lost=" + lost()
                + " benchmark=" + benchmark;
    }
}
