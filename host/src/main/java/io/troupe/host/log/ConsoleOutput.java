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
 * reported once per episode ({@link FailureEpisode}: when it starts failing and when it works again) and
 * never propagates; {@link #close()} only flushes, since stderr belongs to the JVM.
 */
final class ConsoleOutput implements LogOutput {

    private final Supplier<PrintStream> target;
    private final FailureEpisode episode;

    ConsoleOutput(Supplier<PrintStream> target) {
        this.target = target;
        this.episode = new FailureEpisode("the console (stderr)", "its records are dropped", target, System::nanoTime);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
        try {
            target.get().write(bytes, offset, length);
            episode.succeeded();
        } catch (RuntimeException e) {
            episode.failed("cannot write to it", e, 0, length);
        }
    }

    @Override
    public void flush(boolean force) {
        try {
            target.get().flush();
        } catch (RuntimeException e) {
            episode.failed("cannot flush it", e, 0, 0);
        }
    }

    @Override
    public void close() {
        flush(false);
    }
}
