package io.troupe.server.session;

/**
 * The life of a {@link Session}.
 *
 * <pre>
 *  AWAITING_HELLO ──HELLO ok──► OPEN ──BYE from client, end of input, server stopping──► DRAINING
 *        │                        │                                                      │ every request
 *        │ anything else,         │ protocol fault, idle timeout,                         │ answered
 *        │ auth timeout           │ tenant removed                                       ▼
 *        └────────────────────────┴──────────────────────────────────────────────────► CLOSED
 * </pre>
 *
 * <p><b>Threading:</b> a session's state is read and changed on its connection's loop only.
 */
enum SessionState {
    /** Connected; only HELLO is accepted, frames are limited to 4096 bytes. */
    AWAITING_HELLO,
    /** Authenticated: frames are routed to the tenant's handlers. */
    OPEN,
    /**
     * No new request runs; waits for the requests in flight to be answered, then BYE and close.
     * When the server is stopping, it reads on briefly after its BYE (until the client closes, at
     * most {@code Session.SHUTDOWN_LINGER}), answering late frames ERROR {@code server.shutdown}.
     */
    DRAINING,
    /** Closing or closed; nothing more is read or answered. */
    CLOSED
}
