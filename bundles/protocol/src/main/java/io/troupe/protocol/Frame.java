package io.troupe.protocol;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * One frame of protocol version 1, as the application sees it. The version byte and the flags are
 * not part of it: they are always written as 1 and 0, and flags are ignored when read.
 *
 * <p>Any frame that can be constructed can be encoded: the constructor checks that the name is at
 * most {@value #MAX_NAME_BYTES} bytes of UTF-8 (with no unpaired surrogate, so that it survives the
 * round trip), and that the whole frame fits in one buffer. It does not check which names or
 * contents make sense for a type; that is the session's business ({@link ErrorCode#BAD_REQUEST}).
 *
 * <p>{@code corrId} is an unsigned 64-bit number carried in a {@code long}: compare it with
 * {@link Long#compareUnsigned} and print it with {@link Long#toUnsignedString(long)}.
 *
 * <p>Equality compares the content's bytes, not the array's identity.
 *
 * <p><b>Threading:</b> immutable and safe to hand to other threads, on one condition: the frame
 * takes ownership of its {@code content} array without copying it (frames can be large), and
 * {@link #content()} returns that same array. Neither the creator nor any reader may modify it.
 *
 * @param type    the frame type
 * @param corrId  chosen by the requester and echoed in the answer; 0 means none
 * @param name    the routing key; the tenant id in HELLO, the error code in ERROR; may be empty
 * @param content the opaque payload; may be empty, never null
 */
public record Frame(FrameType type, long corrId, String name, byte[] content) {

    /** The protocol version this library speaks: the {@code version} byte of every frame. */
    public static final int VERSION = 1;

    /** The most bytes a name may take in UTF-8 ({@code nameLen} is a u16). */
    public static final int MAX_NAME_BYTES = 0xFFFF;

    private static final byte[] EMPTY = new byte[0];

    /**
     * @throws NullPointerException     if {@code type}, {@code name} or {@code content} is null
     * @throws IllegalArgumentException if the name is not encodable in at most
     *                                  {@value #MAX_NAME_BYTES} bytes of UTF-8, or the frame would
     *                                  exceed {@link FrameDecoder#MAX_LENGTH}
     */
    public Frame {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(content, "content");
        long nameBytes = utf8Length(name);
        if (nameBytes > MAX_NAME_BYTES) {
            throw new IllegalArgumentException(
                    "name takes " + nameBytes + " bytes in UTF-8, more than " + MAX_NAME_BYTES);
        }
        long length = FrameDecoder.MIN_LENGTH + nameBytes + content.length;
        if (length > FrameDecoder.MAX_LENGTH) {
            throw new IllegalArgumentException("frame of " + length + " bytes exceeds " + FrameDecoder.MAX_LENGTH);
        }
    }

    /** HELLO: opens a session for {@code tenantId}, authenticated by {@code token}. */
    public static Frame hello(long corrId, String tenantId, String token) {
        return new Frame(FrameType.HELLO, corrId, tenantId, token.getBytes(UTF_8));
    }

    /** WELCOME: accepts the HELLO with this corrId and names the session. */
    public static Frame welcome(long corrId, String sessionId) {
        return new Frame(FrameType.WELCOME, corrId, "", sessionId.getBytes(UTF_8));
    }

    /** SEND without a corrId: a one-way message, or a push from the server. */
    public static Frame send(String name, byte[] content) {
        return send(0L, name, content);
    }

    /** SEND: a one-way message to the handler {@code name}. */
    public static Frame send(long corrId, String name, byte[] content) {
        return new Frame(FrameType.SEND, corrId, name, content);
    }

    /** REQUEST: expects exactly one REPLY or ERROR with the same corrId. */
    public static Frame request(long corrId, String name, byte[] content) {
        return new Frame(FrameType.REQUEST, corrId, name, content);
    }

    /** REPLY: the result of the request with this corrId and name. */
    public static Frame reply(long corrId, String name, byte[] content) {
        return new Frame(FrameType.REPLY, corrId, name, content);
    }

    /** ERROR: reports {@code code} for the frame with this corrId (0 if none), with a UTF-8 detail. */
    public static Frame error(long corrId, ErrorCode code, String detail) {
        return new Frame(FrameType.ERROR, corrId, code.code(), detail.getBytes(UTF_8));
    }

    /** PING: answered by a PONG with the same corrId and content. */
    public static Frame ping(long corrId, byte[] content) {
        return new Frame(FrameType.PING, corrId, "", content);
    }

    /** PONG: answers the PING with this corrId, echoing its content. */
    public static Frame pong(long corrId, byte[] content) {
        return new Frame(FrameType.PONG, corrId, "", content);
    }

    /** BYE: the sender ends the session. */
    public static Frame bye() {
        return new Frame(FrameType.BYE, 0L, "", EMPTY);
    }

    /**
     * The content decoded as UTF-8 (malformed input becomes U+FFFD): the token of a HELLO, the
     * session id of a WELCOME, the detail of an ERROR.
     */
    public String text() {
        return new String(content, UTF_8);
    }

    /** For an ERROR frame, its code when this version of the protocol knows it; otherwise empty. */
    public Optional<ErrorCode> errorCode() {
        return type == FrameType.ERROR ? ErrorCode.fromCode(name) : Optional.empty();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Frame that
                && type == that.type
                && corrId == that.corrId
                && name.equals(that.name)
                && Arrays.equals(content, that.content);
    }

    @Override
    public int hashCode() {
        return Objects.hash(type, corrId, name, Arrays.hashCode(content));
    }

    @Override
    public String toString() {
        return "Frame[" + type + " corrId=" + Long.toUnsignedString(corrId) + " name=\"" + name + "\" content="
                + content.length + " bytes]";
    }

    /**
     * The number of bytes {@code s} takes in UTF-8.
     *
     * @throws IllegalArgumentException on an unpaired surrogate, which UTF-8 cannot represent
     */
    static long utf8Length(String s) {
        long bytes = 0;
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (!Character.isSurrogate(c)) {
                bytes += 3;
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                throw new IllegalArgumentException("name has an unpaired surrogate at index " + i);
            }
        }
        return bytes;
    }
}
