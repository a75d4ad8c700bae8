package io.troupe.host.log;

/**
 * Where formatted log records end up.
 *
 * <p>A record is complete text, one or more lines, ending with {@link System#lineSeparator()}; a
 * sink writes it verbatim and must keep it contiguous with respect to other records.
 *
 * <p>Threading: implementations accept {@link #append} from any number of threads at once. No method
 * may throw: a sink that cannot write reports the failure once on stderr and goes on (see
 * {@link SinkFailureReport}). After {@link #close} further records are dropped silently.
 */
public interface LogSink {

    /** Writes one formatted record. */
    void append(String record);

    /** Pushes anything buffered to the underlying device. */
    void flush();

    /** Flushes and releases the underlying device; idempotent. */
    void close();
}
