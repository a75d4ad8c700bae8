package io.troupe.host.log;

import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Tells stderr, once per sink, that the sink failed to write, so that a full disk does not turn
 * every log call into an exception or into a flood of error messages.
 *
 * <p>Threading: {@link #report} may be called from any thread; exactly one call prints.
 */
final class SinkFailureReport {

    private final Supplier<PrintStream> target;
    private final AtomicBoolean reported = new AtomicBoolean();

    /** Reports to {@link System#err} as it is when the failure happens. */
    SinkFailureReport() {
        this(() -> System.err);
    }

    SinkFailureReport(Supplier<PrintStream> target) {
        this.target = target;
    }

    /** Prints {@code what} and the cause if nothing was reported before; never throws. */
    void report(String what, Throwable cause) {
        if (!reported.compareAndSet(false, true)) {
            return;
        }
        try {
            target.get().println("troupe-log: " + what + ": " + cause
                    + " (further failures of this sink are not reported)");
        } catch (RuntimeException ignored) {
            // stderr itself is broken: there is nowhere left to report to.
        }
    }

    boolean hasReported() {
        return reported.get();
    }
}
