package io.troupe.client;

import java.io.IOException;

/**
 * The client has no usable connection for a request: it was sent and the connection ended before
 * its answer came, or it was made while the client was not connected (before {@code connect()}
 * completed, while reconnecting, after the server said BYE, or after {@code close()}).
 *
 * <p>Requests are never replayed on a new connection, since they may not be idempotent: whether a
 * request that failed this way reached its handler is unknown.
 *
 * <p><b>Threading:</b> immutable once thrown; any thread.
 */
public final class ConnectionLostException extends IOException {

    private static final long serialVersionUID = 1L;

    public ConnectionLostException(String message) {
        super(message);
    }

    public ConnectionLostException(String message, Throwable cause) {
        super(message, cause);
    }
}
