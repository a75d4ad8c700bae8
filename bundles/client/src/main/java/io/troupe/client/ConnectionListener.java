package io.troupe.client;

import java.time.Duration;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * Observes a client's connection: for logs and metrics, not for control.
 *
 * <pre>
 *   connect() ─► connected ─► disconnected ─► reconnecting(1, d1) ─► reconnecting(2, d2) ─► connected ─► ...
 *                                  (attempt 1 failed) ──────┘
 *   a tenant that moved: ... connected ─► disconnected ─► redirected(A, B, 0) ─► connected ─► ...
 * </pre>
 * {@code disconnected} follows every {@code connected}, including at {@link TroupeClient#close()};
 * {@code reconnecting} precedes each automatic attempt after a failure (an attempt after a session was
 * lost, the next server of a round, or the next round after the backoff), with the delay it waits first;
 * {@code redirected} precedes each attempt a server's redirect caused.
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
     * The session ended. Requests in flight that cannot be sent again have failed with
     * {@link ConnectionLostException}; the others wait for the next session (see {@link TroupeClient}).
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

    /**
     * A server that does not serve the client's tenant sent it elsewhere (protocol 1.4's {@code tenant.moved}:
     * an ERROR answering HELLO, or a BYE ending the session, which {@code disconnected} reported first); the
     * client connects to {@code to} after {@code delay}, and sends again there the requests left unanswered
     * (since 1.2).
     *
     * @param from  the server that redirected, {@code host:port}
     * @param to    where the client goes: the owner the server named, or the next of the client's servers
     *              when it could not name one yet (the tenant is moving)
     * @param delay zero when the owner was named; else the backoff drawn before trying the next server
     */
    default void redirected(String from, String to, Duration delay) {
    }
}
