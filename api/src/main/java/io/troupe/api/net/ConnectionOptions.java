package io.troupe.api.net;

/**
 * Per-connection limits for a {@link Listener}'s connections.
 *
 * <p><b>Threading:</b> an immutable record; any thread. Each connection reads it on its event loop.
 *
 * @param highWaterMark   pending output (bytes) above which {@link Connection#isWritable()} is false
 * @param lowWaterMark    pending output at or below which {@link ConnectionHandler#onWritable} fires
 *                        after the high-water mark was passed
 * @param maxPendingOutput pending output above which the connection is closed as a slow consumer
 * @param maxInputBuffer  the most bytes a connection buffers unconsumed before it is closed
 */
public record ConnectionOptions(int highWaterMark, int lowWaterMark, long maxPendingOutput, int maxInputBuffer) {

    /** 1 MiB high, 256 KiB low, 16 MiB slow-consumer limit, 2 MiB of unconsumed input. */
    public static final ConnectionOptions DEFAULTS = new ConnectionOptions(1 << 20, 1 << 18, 16L << 20, 2 << 20);

    public ConnectionOptions {
        if (lowWaterMark < 0 || highWaterMark <= lowWaterMark) {
            throw new IllegalArgumentException("need 0 <= lowWaterMark < highWaterMark, got "
                    + lowWaterMark + " and " + highWaterMark);
        }
        if (maxPendingOutput < highWaterMark) {
            throw new IllegalArgumentException("maxPendingOutput must be at least highWaterMark");
        }
        if (maxInputBuffer < 1024) {
            throw new IllegalArgumentException("maxInputBuffer must be at least 1024, was " + maxInputBuffer);
        }
    }
}
