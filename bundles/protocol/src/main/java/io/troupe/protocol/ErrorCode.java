package io.troupe.protocol;

import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The error codes of protocol version 1: the {@code name} of an {@link FrameType#ERROR ERROR} frame.
 *
 * <p>When {@link #closesConnection()} is true, the server sends the ERROR frame and then closes the
 * connection; otherwise the session goes on. Clients must expect codes they do not know (a newer
 * server may add some): {@link #fromCode(String)} returns empty for them.
 *
 * <p><b>Threading:</b> immutable; any thread.
 */
public enum ErrorCode {

    /** The first frame was not HELLO. */
    AUTH_REQUIRED("auth.required", true),
    /** Unknown tenant or wrong token. */
    AUTH_FAILED("auth.failed", true),
    /** HELLO after WELCOME. */
    AUTH_ALREADY("auth.already", false),
    /** The CRC-32C of a frame does not match its bytes. */
    FRAME_CRC("frame.crc", true),
    /** The length field is above the maximum frame size (4096 bytes before WELCOME). */
    FRAME_TOO_LARGE("frame.too_large", true),
    /** Length below 22 or inconsistent with nameLen/contentLen, invalid UTF-8 name, or unknown type. */
    FRAME_MALFORMED("frame.malformed", true),
    /** A type the client must not send: WELCOME, REPLY, ERROR, PONG. */
    FRAME_UNEXPECTED("frame.unexpected", false),
    /** The version byte is not 1. */
    VERSION_UNSUPPORTED("version.unsupported", true),
    /** No handler is registered under the frame's name. */
    NO_HANDLER("no.handler", false),
    /** The tenant has reached its connection quota. */
    QUOTA_CONNECTIONS("quota.connections", true),
    /**
     * The tenant has exceeded its message rate. No longer sent by the Troupe server, which throttles a
     * tenant over its rate instead (it reads the tenant's connections only as fast as the rate allows);
     * kept so that clients written against older servers still compile and understand it.
     */
    QUOTA_RATE("quota.rate", false),
    /** The handler's mailbox is full. */
    MAILBOX_FULL("mailbox.full", false),
    /** The handler failed while processing the request. */
    HANDLER_FAILED("handler.failed", false),
    /** The handler did not answer in time. */
    HANDLER_TIMEOUT("handler.timeout", false),
    /** The frame is well formed but its contents are not acceptable. */
    BAD_REQUEST("bad.request", false),
    /** The server is shutting down. */
    SERVER_SHUTDOWN("server.shutdown", false),
    /**
     * The request's handler actor would be one more than the tenant's {@code maxActors} allows; the
     * request was not run and the session goes on (since 1.1).
     */
    TENANT_LIMIT_ACTORS("tenant.limit.actors", false),
    /**
     * The server has too many HELLOs waiting for their token to be verified (each costs a deliberately
     * slow hash); nothing was checked. The connection is closed: connect again after a short pause
     * (since 1.2).
     */
    SERVER_BUSY("server.busy", true),
    /**
     * The request ran on a durable actor whose state could not be made durable; its reply was withdrawn
     * and the actor restarts from its last stored state. The session goes on (since 1.3).
     */
    STATE_UNAVAILABLE("state.unavailable", false),
    /**
     * In a cluster, the tenant of the HELLO is served by another node: the content is that node's address
     * for clients, {@code host:port} in UTF-8, or empty while the tenant is moving and its owner is not
     * known yet (then connect to another node after a short pause). Nothing was admitted; the connection
     * is closed. A session whose tenant moves away gets a BYE saying the same ({@link Redirect}) (since
     * 1.4).
     */
    TENANT_MOVED("tenant.moved", true);

    private static final Map<String, ErrorCode> BY_CODE = Stream.of(values())
            .collect(Collectors.toUnmodifiableMap(ErrorCode::code, Function.identity()));

    private final String code;
    private final boolean closesConnection;

    ErrorCode(String code, boolean closesConnection) {
        this.code = code;
        this.closesConnection = closesConnection;
    }

    /** The wire string, for example {@code "frame.crc"}. */
    public String code() {
        return code;
    }

    /** Whether the server closes the connection after sending this error. */
    public boolean closesConnection() {
        return closesConnection;
    }

    /**
     * The error code with this wire string.
     *
     * @return the code, or empty when this version of the protocol does not know it
     */
    public static Optional<ErrorCode> fromCode(String code) {
        return Optional.ofNullable(BY_CODE.get(code));
    }
}
