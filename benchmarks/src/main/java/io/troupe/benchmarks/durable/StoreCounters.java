package io.troupe.benchmarks.durable;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The state store's counters as the shell's {@code troupe:stats} prints them on its {@code store} line,
 * read at one moment, with {@link System#nanoTime()} then:
 *
 * <pre>
 * store         812.4 writes/s  48210 writes (3.0 MiB)  9120 syncs  write p99 1.8 ms  42 stored (2.1 KiB)
 * </pre>
 *
 * <p><b>Threading:</b> immutable; any thread.
 *
 * @param writes          snapshots written since the store opened
 * @param syncs           syncs to disk since the store opened
 * @param writeP99Millis  the store's 99th percentile of a write, write to durable, over its recent writes
 * @param atNanos         when the line was read
 */
record StoreCounters(long writes, long syncs, double writeP99Millis, long atNanos) {

    /** How the {@code store} line starts. */
    static final String PREFIX = "store ";

    private static final Pattern LINE = Pattern.compile(
            "store\\s+[0-9.]+ writes/s\\s+(\\d+) writes \\([^)]*\\)\\s+(\\d+) syncs\\s+write p99 ([0-9.]+) ms.*");

    /**
     * Reads a {@code store} line.
     *
     * @throws IllegalArgumentException quoting the line when it is not one
     */
    static StoreCounters parse(String line, long atNanos) {
        Matcher m = LINE.matcher(line.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("not a store line of troupe:stats (expected 'store  N writes/s  N writes"
                    + " (size)  N syncs  write p99 N ms ...'): " + line);
        }
        return new StoreCounters(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)),
                Double.parseDouble(m.group(3)), atNanos);
    }

    /** What the store did between {@code earlier} and this reading. */
    StoreActivity since(StoreCounters earlier) {
        return new StoreActivity(writes - earlier.writes, syncs - earlier.syncs, (atNanos - earlier.atNanos) / 1e9,
                writeP99Millis);
    }
}
