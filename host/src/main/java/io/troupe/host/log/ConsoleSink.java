package io.troupe.host.log;

import java.io.PrintStream;
import java.util.function.Supplier;

/**
 * Writes records to stderr.
 *
 * <p>By default it looks {@link System#err} up for every record, so that a launcher or shell which
 * replaces stderr after logging started still gets the output.
 *
 * <p>Threading: any thread. {@link PrintStream#print(String)} is synchronised on the stream, so a
 * record is never interleaved with another one written through the same stream. PrintStream keeps
 * I/O errors to itself; a replaced stream that throws is reported once and never propagates.
 */
public final class ConsoleSink implements LogSink {

    private final Supplier<PrintStream> target;
    private final SinkFailureReport failures;

    /** A sink on {@link System#err}. */
    public ConsoleSink() {
        this(() -> System.err);
    }

    /** A sink on a fixed stream, for tests. */
    ConsoleSink(PrintStream stream) {
        this(() -> stream);
    }

    private ConsoleSink(Supplier<PrintStream> target) {
        this.target = target;
        this.failures = new SinkFailureReport(target);
    }

    @Override
    public void append(String record) {
        try {
            PrintStream out = target.get();
            out.print(record);
            out.flush();
        } catch (RuntimeException e) {
            failures.report("cannot write to the console", e);
        }
    }

    @Override
    public void flush() {
        try {
            target.get().flush();
        } catch (RuntimeException e) {
            failures.report("cannot flush the console", e);
        }
    }

    /** Flushes only: stderr belongs to the JVM, not to this sink. */
    @Override
    public void close() {
        flush();
    }
}
