package io.troupe.host.log;

import java.io.PrintStream;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The failures of one log output, told once per episode: a line on stderr when the output first fails
 * (a full disk, a log folder replaced by a file, no file descriptor left), nothing while it keeps failing,
 * and a line when it works again, saying for how long it failed and how many records (and bytes) did not
 * reach it meanwhile. A full disk thus neither turns every log call into an exception nor floods stderr,
 * and the operator learns when the trouble ended and what it cost.
 *
 * <pre>
 *   healthy ──failed()──► failing ──succeeded()──► healthy
 *            (start line)   │ failed(): counted, silent   (end line; the summary is returned so that it
 *                           ◄┘                              can also go into the output that recovered)
 * </pre>
 *
 * <p><b>Threading:</b> not thread-safe; confined to the holder of the logging I/O lock, as the outputs
 * themselves are. Never throws: a stderr that fails too is ignored, there is nowhere left to report to.
 */
final class FailureEpisode {

    private final String sink;
    private final String meanwhile;
    private final Supplier<PrintStream> stderr;
    private final LongSupplier nanoTime;

    private boolean failing;
    private long sinceNanos;
    private String firstReason;
    private long lostRecords;
    private long lostBytes;
    private long episodes;

    /**
     * @param sink     what fails, as the lines name it (for example {@code log file /opt/troupe/log/troupe.log})
     * @param meanwhile where the records the sink did not take went, for both lines (for example
     *                  {@code they go to stderr})
     * @param stderr   where the two lines of an episode go, looked up for each line
     * @param nanoTime the clock the episode's duration is measured with
     */
    FailureEpisode(String sink, String meanwhile, Supplier<PrintStream> stderr, LongSupplier nanoTime) {
        this.sink = Objects.requireNonNull(sink, "sink");
        this.meanwhile = Objects.requireNonNull(meanwhile, "meanwhile");
        this.stderr = Objects.requireNonNull(stderr, "stderr");
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
    }

    /**
     * Records a failure of the sink, which lost {@code records} records of {@code bytes} bytes (zero when
     * nothing was being written, e.g. a failed open). The first failure of an episode prints its start line.
     *
     * @param what  what was being done, e.g. {@code cannot write}
     * @param cause the failure
     * @return whether this failure started an episode
     */
    boolean failed(String what, Throwable cause, long records, long bytes) {
        lostRecords += records;
        lostBytes += bytes;
        if (failing) {
            return false;
        }
        failing = true;
        episodes++;
        sinceNanos = nanoTime.getAsLong();
        firstReason = what + ": " + describe(cause);
        print(sink + " fails (" + firstReason + "); until it works again, which is reported once, "
                + meanwhile);
        return true;
    }

    /**
     * Starts an episode without its start line, for a caller that reports the failure itself (the log file
     * that cannot be opened at start is a WARN record of the logger); the end line comes as usual. Does
     * nothing while an episode is going on.
     */
    void begin(String what, Throwable cause) {
        if (failing) {
            return;
        }
        failing = true;
        episodes++;
        sinceNanos = nanoTime.getAsLong();
        firstReason = what + ": " + describe(cause);
    }

    /**
     * Records that the sink worked. Ends the episode if one is going on: prints its end line and returns
     * its summary (for the sink itself to keep); returns null when the sink was not failing.
     */
    String succeeded() {
        if (!failing) {
            return null;
        }
        failing = false;
        long seconds = TimeUnit.NANOSECONDS.toSeconds(nanoTime.getAsLong() - sinceNanos);
        String summary = sink + " works again after failing for " + seconds + " s (" + firstReason + "); "
                + lostRecords + " records (" + lostBytes + " bytes) could not be written to it (meanwhile "
                + meanwhile + ")";
        lostRecords = 0;
        lostBytes = 0;
        firstReason = null;
        print(summary);
        return summary;
    }

    /** Whether an episode is going on. */
    boolean failing() {
        return failing;
    }

    /** Episodes started since this object was made; for tests and diagnostics. */
    long episodes() {
        return episodes;
    }

    /** Records lost in the episode going on (0 when none is). */
    long lostRecords() {
        return lostRecords;
    }

    private void print(String line) {
        try {
            PrintStream err = stderr.get();
            err.println("troupe-log: " + line);
            err.flush();
        } catch (RuntimeException e) {
            // stderr is broken too: there is nowhere left to report to.
        }
    }

    /** The cause's class and message, and the message of its own cause when it adds something. */
    private static String describe(Throwable cause) {
        if (cause == null) {
            return "unknown cause";
        }
        String text = cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
        Throwable inner = cause.getCause();
        if (inner != null && inner.getMessage() != null && !text.contains(inner.getMessage())) {
            text += ": " + inner.getMessage();
        }
        return text;
    }
}
