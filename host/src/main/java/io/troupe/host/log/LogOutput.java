package io.troupe.host.log;

/**
 * Where the logger thread puts whole records: a byte range holding one or more complete records,
 * each ending with {@link System#lineSeparator()}.
 *
 * <p>Threading: called by one thread at a time, the holder of the logging I/O lock (the
 * {@code troupe-logger} thread, a caller writing a fatal record, or {@link TroupeLogging#stop()}).
 * No method throws: an output that cannot write reports the failure on stderr once per episode (see
 * {@link FailureEpisode}) and goes on.
 */
interface LogOutput {

    /** Writes {@code bytes[offset, offset + length)}. */
    void write(byte[] bytes, int offset, int length);

    /**
     * Pushes anything buffered to the operating system; with {@code force}, also asks it to put the
     * data on the storage device.
     */
    void flush(boolean force);

    /** Flushes and releases the device; idempotent. */
    void close();
}
