package io.troupe.protocol;

import java.util.Optional;

/**
 * The type of a frame: the {@code type} byte on the wire, and who may send it.
 *
 * <p><b>Threading:</b> immutable; any thread.
 */
public enum FrameType {

    /** Client to server, first frame of a session. Name: tenant id; content: token (UTF-8). */
    HELLO(1, true, false),
    /** Server to client, answers HELLO with its corrId. Content: session id. */
    WELCOME(2, false, true),
    /** Both ways, one-way to the handler {@code name}; pushed by the server with corrId 0. */
    SEND(3, true, true),
    /** Client to server; answered by exactly one REPLY or ERROR with the same corrId. */
    REQUEST(4, true, false),
    /** Server to client. Name: the request's name; content: the result. */
    REPLY(5, false, true),
    /** Server to client. CorrId of the failed frame or 0; name: error code; content: UTF-8 detail. */
    ERROR(6, false, true),
    /** Client to server; answered by PONG with the same corrId and content. */
    PING(7, true, false),
    /** Server to client, answers PING. */
    PONG(8, false, true),
    /** Both ways: the sender ends the session. */
    BYE(9, true, true);

    private static final FrameType[] BY_CODE = new FrameType[256];

    static {
        for (FrameType type : values()) {
            BY_CODE[type.code] = type;
        }
    }

    private final int code;
    private final boolean sentByClient;
    private final boolean sentByServer;

    FrameType(int code, boolean sentByClient, boolean sentByServer) {
        this.code = code;
        this.sentByClient = sentByClient;
        this.sentByServer = sentByServer;
    }

    /** The {@code type} byte, 1 to 9. */
    public int code() {
        return code;
    }

    /**
     * Whether a client may send this type. A server receiving any other type answers
     * {@link ErrorCode#FRAME_UNEXPECTED}.
     */
    public boolean isSentByClient() {
        return sentByClient;
    }

    /** Whether a server may send this type. */
    public boolean isSentByServer() {
        return sentByServer;
    }

    /**
     * The type with this code.
     *
     * @param code the {@code type} byte, read as unsigned (0 to 255); any int is accepted
     * @return the type, or empty when the code is unknown to protocol version 1
     */
    public static Optional<FrameType> fromCode(int code) {
        return Optional.ofNullable(byCode(code));
    }

    /** As {@link #fromCode}, null for an unknown code: the decoder's, with no object per frame. */
    static FrameType byCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
