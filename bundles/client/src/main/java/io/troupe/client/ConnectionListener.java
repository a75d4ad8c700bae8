package io.troupe.client;

import java.time.Duration;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * Observes a client's connection: for logs and metrics, not for control.
 *
 * <pre>
 *   connect() ─► connected ─► disconnected ─► reconnecting(1, d1) ─► reconnecting(2, d2) ─► connected ─► ...
 *                                  (attempt 1 failed) ──────┘
 * </pre>
 * {@code disconnected} follows every {@code connected}, including at {@link TroupeClient#close()};
 * {@code reconnecting} precedes each automatic attempt, with the delay it waits first.
 *
 * <p><b>Threading:</b> called on the client's loop thread, in the order above; must not block.
 * Exceptions are caught and logged.
 */
@ConsumerType
public interface ConnectionListener {

    /** The server welcomed the client: requests may be sent from now on. */
    default void connected(String sessionId) {
    }

    /**
     * The session ended. Requests in flight have failed with {@link ConnectionLostException}.
     *
     * @param cause why: an {@link java.io.IOException} for a broken connection, a
     *              {@link ConnectionLostException} when the server closed or said BYE (its cause is
     *              then the server's {@link TroupeClientException}, such as
     *              {@code server.shutdown}, when one came first), or when the client was closed
     */
    default void disconnected(Throwable cause) {
    }

    /**
     * The client will try to connect again after {@code delay}.
     *
     * @param attempt 1 for the first attempt after the session ended, then 2, 3, ...; back to 1
     *                after a successful attempt
     * @param delay   the delay drawn from the backoff, at most the configured cap
     * @param cause   why the previous session or attempt ended
     */
    default void reconnecting(int attempt, Duration delay, Throwable cause) {
    }
}
