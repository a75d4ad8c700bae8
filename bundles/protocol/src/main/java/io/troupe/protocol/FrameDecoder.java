package io.troupe.protocol;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.util.zip.CRC32C;

/**
 * Cuts frames of protocol version 1 out of a byte stream, one connection's worth.
 *
 * <h2>Byte layout</h2>
 * All integers are unsigned and big-endian; n = nameLen, c = contentLen.
 * <pre>
 *  offset   size         field
 *  0        4            length      number of bytes that follow = 22 + n + c
 *  4        1            version     1
 *  5        1            type        {@link FrameType} code, 1..9
 *  6        2            flags       written 0, ignored when read
 *  8        8            corrId      chosen by the requester, echoed in the answer; 0 = none
 *  16       2            nameLen
 *  18       n            name        UTF-8
 *  18+n     4            contentLen
 *  22+n     c            content     opaque
 *  22+n+c   4            crc         CRC-32C of bytes 4 .. 22+n+c-1 (version through content)
 *
 *  +--------+---+---+-------+---------+-------+- - - -+----------+- - - - -+-----+
 *  | length |ver|typ| flags | corrId  |nameLen| name  |contentLen| content | crc |
 *  |   4    | 1 | 1 |   2   |    8    |   2   |   n   |    4     |    c    |  4  |
 *  +--------+---+---+-------+---------+-------+- - - -+----------+- - - - -+-----+
 *           |------------------------- crc covers -------------------------|
 *           |----------------------- length = 22 + n + c ------------------------|
 * </pre>
 *
 * <h2>Checks, in order</h2>
 * The first failing check decides the {@link ErrorCode}:
 * <ol>
 * <li>the length field, as soon as its 4 bytes are there and before any of the body is awaited:
 *     above {@link #maxFrameBytes()} is {@code frame.too_large}, below {@value #MIN_LENGTH} is
 *     {@code frame.malformed};</li>
 * <li>once the whole frame is there, the checksum: {@code frame.crc};</li>
 * <li>the version byte: {@code version.unsupported};</li>
 * <li>the structure: a known type, {@code nameLen} and {@code contentLen} adding up to the length,
 *     a name in valid UTF-8: {@code frame.malformed}.</li>
 * </ol>
 * Every one of these closes the connection: the stream cannot be resynchronised after a bad frame.
 * The {@link FrameException} carries the frame's corrId only for structural faults, the first point
 * at which the corrId bytes are known to be intact and where version 1 says they are.
 *
 * <h2>Whole frames, or large frames as they arrive</h2>
 * {@link #decode} waits until a frame has fully arrived, consuming nothing before: the caller keeps
 * the bytes, so a frame larger than one read is copied into the caller's buffer and then again into
 * the frame's content. {@link #next} decodes the same frames with the same checks, but takes in a
 * frame longer than {@value #ASSEMBLE_ABOVE_BYTES} bytes as soon as its header through
 * {@code contentLen} is there and passes the checks that do not need the checksum (version, type,
 * lengths, the name's UTF-8): its content is copied straight into the frame's array as it arrives
 * (an array that grows with what arrives, so a frame that is announced but not sent holds little;
 * {@link ContentAssembly}), and the checksum is checked at its end. A frame whose header
 * fails one of those checks is awaited whole, as by {@code decode}, so that the first failing check
 * still decides the error code. Frames no longer than {@value #ASSEMBLE_ABOVE_BYTES} bytes (every
 * frame before WELCOME, see {@link #PRE_AUTH_MAX_FRAME_BYTES}) are never taken in early, so nothing
 * is allocated for a frame before it has fully arrived until the peer may send large ones.
 *
 * <h2>Threading</h2>
 * Not thread-safe: it keeps a checksum and a UTF-8 decoder for reuse, and its limit. One instance
 * per connection, used by one thread at a time (the connection's IO loop), including
 * {@link #setMaxFrameBytes(int)}.
 */
public final class FrameDecoder {

    /** The size of the length field that starts every frame. */
    public static final int LENGTH_FIELD_BYTES = 4;

    /** The smallest valid {@code length}: a frame with an empty name and empty content. */
    public static final int MIN_LENGTH = 22;

    /** The default limit on {@code length}: 1 MiB. */
    public static final int DEFAULT_MAX_FRAME_BYTES = 1_048_576;

    /** The limit on {@code length} until the server has sent WELCOME. */
    public static final int PRE_AUTH_MAX_FRAME_BYTES = 4096;

    /** The largest {@code length} this implementation can handle: a whole frame fits in one buffer. */
    public static final int MAX_LENGTH = Integer.MAX_VALUE - LENGTH_FIELD_BYTES;

    private static final int VERSION_OFFSET = 4;
    private static final int TYPE_OFFSET = 5;
    private static final int CORR_ID_OFFSET = 8;
    private static final int NAME_LENGTH_OFFSET = 16;
    private static final int NAME_OFFSET = 18;
    private static final int CONTENT_LENGTH_BYTES = 4;
    static final int CRC_BYTES = 4;

    /**
     * Frames longer than this that have not fully arrived are taken in as they arrive by {@link #next}.
     *
     * @since 1.6
     */
    public static final int ASSEMBLE_ABOVE_BYTES = PRE_AUTH_MAX_FRAME_BYTES;

    private final CRC32C crc = new CRC32C();
    private final NameDecoder names = new NameDecoder();
    private int maxFrameBytes;
    /** The frame {@link #next} is taking in, or null. */
    private ContentAssembly assembly;

    /** A decoder limited to {@value #DEFAULT_MAX_FRAME_BYTES} bytes per frame. */
    public FrameDecoder() {
        this(DEFAULT_MAX_FRAME_BYTES);
    }

    /**
     * A decoder with the given limit on {@code length}; a server starts a connection with
     * {@link #PRE_AUTH_MAX_FRAME_BYTES}.
     *
     * @throws IllegalArgumentException as {@link #setMaxFrameBytes(int)}
     */
    public FrameDecoder(int maxFrameBytes) {
        setMaxFrameBytes(maxFrameBytes);
    }

    /** The current limit on the {@code length} field. */
    public int maxFrameBytes() {
        return maxFrameBytes;
    }

    /**
     * Changes the limit on the {@code length} field for the frames decoded from now on; a server
     * raises it from {@link #PRE_AUTH_MAX_FRAME_BYTES} to its configured maximum once it has sent
     * WELCOME.
     *
     * @throws IllegalArgumentException unless {@value #MIN_LENGTH} &lt;= {@code maxFrameBytes} &lt;=
     *                                  {@link #MAX_LENGTH}
     */
    public void setMaxFrameBytes(int maxFrameBytes) {
        if (maxFrameBytes < MIN_LENGTH || maxFrameBytes > MAX_LENGTH) {
            throw new IllegalArgumentException(
                    "maxFrameBytes must be between " + MIN_LENGTH + " and " + MAX_LENGTH + ": " + maxFrameBytes);
        }
        this.maxFrameBytes = maxFrameBytes;
    }

    /**
     * The {@code length} field at {@code input}'s position, without consuming anything.
     *
     * @param input a buffer in read mode; its byte order does not matter
     * @return the length (unsigned, 0 to 2<sup>32</sup>-1), or -1 if fewer than 4 bytes remain
     */
    public static long peekLength(ByteBuffer input) {
        if (input.remaining() < LENGTH_FIELD_BYTES) {
            return -1;
        }
        return Integer.toUnsignedLong(bigEndian(input).getInt(input.position()));
    }

    /**
     * Decodes the frame at {@code input}'s position if it has fully arrived.
     *
     * @param input the bytes received and not yet consumed, in read mode; heap or direct, any byte
     *              order
     * @return the frame, with {@code input}'s position advanced past it; or {@code null} if the frame
     *         is incomplete, with nothing consumed (call again when more bytes have arrived)
     * @throws FrameException if the bytes at the position cannot start a valid frame; nothing is
     *                        consumed and the connection must be closed
     * @throws IllegalStateException while {@link #next} is taking in a frame
     */
    public Frame decode(ByteBuffer input) throws FrameException {
        if (assembly != null) {
            throw new IllegalStateException("a frame is being taken in by next(); call next() until it returns it");
        }
        int available = input.remaining();
        if (available < LENGTH_FIELD_BYTES) {
            return null;
        }
        ByteBuffer in = bigEndian(input);
        int start = input.position();
        long length = Integer.toUnsignedLong(in.getInt(start));
        checkLength(length);
        if (available - LENGTH_FIELD_BYTES < length) {
            return null;
        }
        int frameLength = (int) length;
        checkCrc(in, start, frameLength);
        checkVersion(in.get(start + VERSION_OFFSET) & 0xFF);
        Frame frame = readFrame(in, start, frameLength);
        input.position(start + LENGTH_FIELD_BYTES + frameLength);
        return frame;
    }

    /**
     * Decodes the next frame as {@link #decode} does, but takes in a large frame's content as it
     * arrives (see the class comment): the bytes of a frame not yet complete may be consumed.
     *
     * @param input the bytes received and not yet consumed, in read mode; heap or direct, any byte
     *              order
     * @return the frame, with {@code input}'s position advanced past it; or {@code null} if more bytes
     *         are needed, with {@code input}'s position advanced past those taken in (call again
     *         with the bytes that remain and those that arrive next)
     * @throws FrameException as {@link #decode}; the connection must be closed
     * @since 1.6
     */
    public Frame next(ByteBuffer input) throws FrameException {
        if (assembly == null) {
            Frame frame = decode(input);
            if (frame != null || !beginAssembly(input)) {
                return frame;
            }
        }
        ContentAssembly taking = assembly;
        assembly = null; // whatever happens next, the frame is done with unless it needs more bytes
        Frame frame = taking.takeFrom(input);
        if (frame == null) {
            assembly = taking;
        }
        return frame;
    }

    /**
     * Whether {@link #next} is in the middle of a frame: it has consumed bytes of a frame it has not
     * returned yet. A caller that sizes its reads may read more at a time then.
     *
     * @since 1.6
     */
    public boolean midFrame() {
        return assembly != null;
    }

    /** The frame {@link #next} is taking in, or null; for tests. */
    ContentAssembly assembly() {
        return assembly;
    }

    /**
     * Starts taking in the incomplete frame at {@code input}'s position if it is longer than
     * {@value #ASSEMBLE_ABOVE_BYTES} bytes and its header is all there and passes every check but the
     * checksum; consumes the header then.
     */
    private boolean beginAssembly(ByteBuffer input) {
        int available = input.remaining();
        if (available < NAME_OFFSET) {
            return false;
        }
        ByteBuffer in = bigEndian(input);
        int start = input.position();
        long length = Integer.toUnsignedLong(in.getInt(start)); // decode has checked it against the limits
        if (length <= ASSEMBLE_ABOVE_BYTES || (in.get(start + VERSION_OFFSET) & 0xFF) != Frame.VERSION) {
            return false;
        }
        FrameType type = FrameType.byCode(in.get(start + TYPE_OFFSET) & 0xFF);
        int nameLength = in.getShort(start + NAME_LENGTH_OFFSET) & 0xFFFF;
        int headerBytes = NAME_OFFSET + nameLength + CONTENT_LENGTH_BYTES;
        int variableBytes = (int) length - MIN_LENGTH;
        if (type == null || available < headerBytes || nameLength > variableBytes
                || Integer.toUnsignedLong(in.getInt(start + NAME_OFFSET + nameLength)) != variableBytes - nameLength) {
            return false;
        }
        String name;
        try {
            name = nameLength == 0 ? ""
                    : names.decode(in, start + NAME_OFFSET, nameLength, type != FrameType.HELLO);
        } catch (CharacterCodingException e) {
            return false; // malformed: reported once the whole frame is there, after its checksum
        }
        crc.reset();
        crc.update(in.duplicate().limit(start + headerBytes).position(start + LENGTH_FIELD_BYTES));
        assembly = new ContentAssembly(type, in.getLong(start + CORR_ID_OFFSET), name,
                variableBytes - nameLength, available - headerBytes, crc);
        input.position(start + headerBytes);
        return true;
    }

    private void checkLength(long length) {
        if (length > maxFrameBytes) {
            throw new FrameException(ErrorCode.FRAME_TOO_LARGE,
                    "frame of " + length + " bytes exceeds the limit of " + maxFrameBytes);
        }
        if (length < MIN_LENGTH) {
            throw new FrameException(ErrorCode.FRAME_MALFORMED,
                    "length " + length + " is below the minimum of " + MIN_LENGTH);
        }
    }

    /** The crc sits in the last 4 bytes that {@code length} counts, wherever the structure says. */
    private void checkCrc(ByteBuffer in, int start, int length) {
        int covered = start + LENGTH_FIELD_BYTES;
        int crcAt = covered + length - CRC_BYTES;
        crc.reset();
        if (in.hasArray()) {
            crc.update(in.array(), in.arrayOffset() + covered, crcAt - covered);
        } else {
            int position = in.position();
            int limit = in.limit();
            crc.update(in.limit(crcAt).position(covered)); // no duplicate: one object less per frame
            in.limit(limit).position(position);
        }
        int actual = (int) crc.getValue();
        int expected = in.getInt(crcAt);
        if (actual != expected) {
            throw new FrameException(ErrorCode.FRAME_CRC, String.format(
                    "CRC-32C is 0x%08x, the frame says 0x%08x", actual, expected));
        }
    }

    private static void checkVersion(int version) {
        if (version != Frame.VERSION) {
            throw new FrameException(ErrorCode.VERSION_UNSUPPORTED,
                    "version " + version + " is not supported; this side speaks " + Frame.VERSION);
        }
    }

    private Frame readFrame(ByteBuffer in, int start, int length) {
        long corrId = in.getLong(start + CORR_ID_OFFSET);
        int typeCode = in.get(start + TYPE_OFFSET) & 0xFF;
        FrameType type = FrameType.byCode(typeCode);
        if (type == null) {
            throw malformed("unknown frame type " + typeCode, corrId);
        }
        int nameLength = in.getShort(start + NAME_LENGTH_OFFSET) & 0xFFFF;
        int variableBytes = length - MIN_LENGTH;
        if (nameLength > variableBytes) {
            throw malformed("nameLen " + nameLength + " does not fit in length " + length, corrId);
        }
        int nameAt = start + NAME_OFFSET;
        int contentLengthAt = nameAt + nameLength;
        long contentLength = Integer.toUnsignedLong(in.getInt(contentLengthAt));
        if (contentLength != variableBytes - nameLength) {
            throw malformed("nameLen " + nameLength + " and contentLen " + contentLength
                    + " do not add up to length " + length + " - " + MIN_LENGTH, corrId);
        }
        // a HELLO's name (the tenant) comes once per connection: not remembered for the next frame's
        String name = decodeName(in, nameAt, nameLength, type != FrameType.HELLO, corrId);
        byte[] content = new byte[(int) contentLength];
        in.get(contentLengthAt + CONTENT_LENGTH_BYTES, content);
        return new Frame(type, corrId, name, content);
    }

    private String decodeName(ByteBuffer in, int at, int nameLength, boolean remember, long corrId) {
        if (nameLength == 0) {
            return "";
        }
        try {
            return names.decode(in, at, nameLength, remember);
        } catch (CharacterCodingException e) {
            throw malformed("name is not valid UTF-8", corrId);
        }
    }

    private static FrameException malformed(String detail, long corrId) {
        return new FrameException(ErrorCode.FRAME_MALFORMED, detail, corrId);
    }

    private static ByteBuffer bigEndian(ByteBuffer input) {
        return input.order() == ByteOrder.BIG_ENDIAN ? input : input.duplicate().order(ByteOrder.BIG_ENDIAN);
    }
}
