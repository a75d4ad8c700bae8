package io.troupe.host.log;

import java.io.PrintStream;
import java.util.function.Supplier;

/**
 * Copies records to stderr, when Troupe runs in a terminal or has no log file.
 *
 * <p>The stream is looked up for every chunk, so that a launcher or shell which replaces
 * {@link System#err} after logging started still gets the output.
 *
 * <p>Threading: one thread at a time, the holder of the logging I/O lock. A stream that throws is
 * reported once and never propagates; {@link #close()} only flushes, since stderr belongs to the JVM.
 */
final class ConsoleOutput implements LogOutput {

    private final Supplier<PrintStream> target;
    private final SinkFailureReport failures;

    ConsoleOutput(Supplier<PrintStream> target) {
        this.target = target;
        this.failures = new SinkFailureReport(target);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
        try {
            target.get().write(bytes, offset, length);
        } catch (RuntimeException e) {
            failures.report("cannot write to the console", e);
        }
    }

    @Override
    public void flush(boolean force) {
        try {
            target.get().flush();
        } catch (RuntimeException e) {
            failures.report("cannot flush the console", e);
        }
    }

    @Override
    public void close() {
        flush(false);
    }
}
