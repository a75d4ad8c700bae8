package io.troupe.host.supervise;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one runtime thread's loop does with a throwable that escaped an iteration: a fatal one ({@link
 * FatalErrors#isFatal}) ends the process; any other is logged with the thread and what it was doing, and the
 * loop goes on with the same work (its channels, its queue, its timers), unless it is the
 * {@value #MAX_FAILURES}th within {@value #WINDOW_SECONDS} s: a loop failing that often is stuck in a bug that
 * going on will not cure, and that is fatal too (Erlang's restart intensity).
 *
 * <pre>{@code
 * while (running) {
 *     try {
 *         runIteration();
 *     } catch (Throwable t) {
 *         failures.failed("running an iteration", t);   // returns (logged) or throws (fatal)
 *     }
 * }
 * }</pre>
 *
 * <p><b>Threading:</b> confined to its loop's thread.
 */
public final class LoopFailures {

    /** Failures within {@link #WINDOW_SECONDS} that are fatal. */
    public static final int MAX_FAILURES = 10;
    public static final long WINDOW_SECONDS = 10;

    private static final Logger LOG = LoggerFactory.getLogger(LoopFailures.class);

    private final String thread;
    private final FailureWindow window;

    /** @param thread what the loop is, for the records ("IO loop troupe-io-1") */
    public LoopFailures(String thread) {
        this(thread, new FailureWindow(MAX_FAILURES, Duration.ofSeconds(WINDOW_SECONDS)));
    }

    LoopFailures(String thread, FailureWindow window) {
        this.thread = thread;
        this.window = window;
    }

    /**
     * Handles {@code failure}, met while {@code doing}: returns after logging it, or, for a fatal error or one
     * failure too many, hands it to {@link FatalErrors#fatal} and throws what that gives back.
     */
    public void failed(String doing, Throwable failure) {
        if (FatalErrors.alreadyHandled(failure)) {
            throw FatalErrors.asError(failure);
        }
        if (FatalErrors.isFatal(failure)) {
            throw FatalErrors.fatal(doing, failure);
        }
        int recent = window.record(System.nanoTime());
        if (recent >= window.max()) {
            throw FatalErrors.fatal(doing, new RestartIntensityError(thread + " failed " + recent + " times within "
                    + TimeUnit.NANOSECONDS.toSeconds(window.windowNanos()) + " s (restart intensity exceeded)",
                    failure));
        }
        LOG.error("{} failed while {} (failure {} within {} s; failure {} is fatal); it goes on with the same work",
                thread, doing, recent, TimeUnit.NANOSECONDS.toSeconds(window.windowNanos()), window.max(), failure);
    }

    /** A loop that failed too often in too short a time: fatal by the restart intensity rule. */
    static final class RestartIntensityError extends Error {

        private static final long serialVersionUID = 1L;

        RestartIntensityError(String message, Throwable last) {
            super(message, last);
        }
    }
}
