package io.troupe.host.log;

import java.nio.charset.StandardCharsets;

/**
 * A log output that keeps what the logger thread wrote, for a stress test to check.
 *
 * <p><b>Threading:</b> written by one thread at a time (the holder of the logging I/O lock, as every
 * {@link LogOutput}); read by the arbiter after the trial.
 */
final class CollectingOutput implements LogOutput {

    private final StringBuilder written = new StringBuilder();

    @Override
    public void write(byte[] bytes, int offset, int length) {
        written.append(new String(bytes, offset, length, StandardCharsets.US_ASCII));
    }

    @Override
    public void flush(boolean force) {
        // nothing buffered
    }

    @Override
    public void close() {
        // nothing to release
    }

    String written() {
        return written.toString();
    }
}
