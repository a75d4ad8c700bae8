package io.troupe.server.session;

/**
 * The life of a {@link Session}.
 *
 * <pre>
 *  AWAITING_HELLO ──HELLO ok──► OPEN ──BYE from client, end of input, server stopping,──► DRAINING
 *        │                        │    protocol fault (reading stops, ERROR kept back)    │ every request
 *        │ anything else,         │ idle timeout,                                         │ answered
 *        │ auth timeout,          │ tenant removed                                        │ (then the
 *        │ protocol fault         │                                                       ▼ fault's ERROR)
 *        └────────────────────────┴──────────────────────────────────────────────────► CLOSED
 * </pre>
 *
 * <p>A protocol fault (a frame that cannot be decoded: {@code frame.crc}, {@code frame.malformed},
 * {@code frame.too_large}, {@code version.unsupported}) after WELCOME does not close at once: the
 * session stops reading and drains, so that each request accepted before the bad frame is answered
 * (its REPLY or ERROR, or {@code handler.timeout} at its request timeout); then the fault's ERROR,
 * and close. Before WELCOME no request can have been accepted: the ERROR and close are immediate.
 *
 * <p><b>Threading:</b> a session's state is read and changed on its connection's loop only.
 */
enum SessionState {
    /** Connected; only HELLO is accepted, frames are limited to 4096 bytes. */
    AWAITING_HELLO,
    /** Authenticated: frames are routed to the tenant's handlers. */
    OPEN,
    /**
     * No new request runs; waits for the requests in flight to be answered, then BYE and close (after a
     * protocol fault: the fault's ERROR instead of BYE, and close).
     * When the server is stopping, it reads on briefly after its BYE (until the client closes, at
     * most {@code Session.SHUTDOWN_LINGER}), answering late frames ERROR {@code server.shutdown}.
     */
    DRAINING,
    /** Closing or closed; nothing more is read or answered. */
    CLOSED
}
