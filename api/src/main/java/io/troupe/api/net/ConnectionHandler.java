package io.troupe.api.net;

import java.nio.ByteBuffer;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * Reacts to one connection's events.
 *
 * <p><b>Threading:</b> every callback runs on the connection's IO loop, never concurrently with
 * another callback of the same connection. Callbacks must return quickly and never block.
 */
@ConsumerType
public interface ConnectionHandler {

    /** The connection is registered with its loop; reading starts after this returns. */
    default void onOpen(Connection connection) {
    }

    /**
     * Bytes arrived. {@code input} is in read mode: its remaining bytes are everything received and
     * not yet consumed. Advance its position past what you consume; what remains is presented again,
     * with more bytes behind it, on the next call. Do not keep a reference to {@code input}.
     */
    void onRead(Connection connection, ByteBuffer input);

    /**
     * The peer shut down its output (half-close); no more bytes will arrive. The default closes the
     * connection once pending output is written; override to keep answering a half-closed peer.
     */
    default void onInputShutdown(Connection connection) {
        connection.close();
    }

    /** Pending output fell to or below the low-water mark after rising above the high-water mark. */
    default void onWritable(Connection connection) {
    }

    /**
     * The connection is closed; called exactly once.
     *
     * @param cause the I/O failure that closed it (a broken limit or an exception thrown by this handler
     *              included), or {@code null} for an orderly close or an abort
     */
    default void onClosed(Connection connection, Throwable cause) {
    }
}
