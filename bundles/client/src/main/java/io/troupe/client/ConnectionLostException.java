package io.troupe.client;

import java.io.IOException;

/**
 * The client has no usable connection for a request: it was sent and the connection ended before
 * its answer came, or it was made while the client was not connected (before {@code connect()}
 * completed, while reconnecting, after the server said BYE, or after {@code close()}).
 *
 * <p>A request that failed this way after it was sent may or may not have reached its handler: it is
 * sent again on a new connection only when that is known to be safe (a redirect, or a request the
 * application declared idempotent; see {@link TroupeClient}), and fails with this exception otherwise,
 * its message saying that its outcome is unknown.
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
