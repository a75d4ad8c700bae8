package io.troupe.protocol;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * Writes frames in the layout drawn in {@link FrameDecoder}: big-endian, version 1, flags 0, and a
 * CRC-32C over every byte from the version through the content.
 *
 * <p>The encoder does not apply the peer's maximum frame size; a sender that wants to stay under it
 * compares {@link #encodedSize(Frame)} first.
 *
 * <p><b>Threading:</b> stateless; any thread, concurrently. {@link CRC32C} is not thread-safe, so
 * each call uses its own (a few bytes, cheaper than any sharing scheme).
 */
public final class FrameEncoder {

    private FrameEncoder() {
    }

    /** The number of bytes {@code frame} takes on the wire, length field included. */
    public static int encodedSize(Frame frame) {
        return size(Frame.utf8Length(frame.name()), frame.content().length);
    }

    /**
     * Encodes {@code frame} into a new heap buffer of exactly its size.
     *
     * @return the buffer in read mode: position 0, limit = capacity = {@link #encodedSize(Frame)}
     */
    public static ByteBuffer encode(Frame frame) {
        int nameLength = (int) Frame.utf8Length(frame.name());
        ByteBuffer out = ByteBuffer.allocate(size(nameLength, frame.content().length));
        write(frame, nameLength, out);
        return out.flip();
    }

    /**
     * Encodes {@code frame} into {@code out} at its position, and advances the position past it.
     * Heap and direct buffers both work; the buffer's own byte order is neither used nor changed.
     *
     * @throws BufferOverflowException if fewer than {@link #encodedSize(Frame)} bytes remain; nothing
     *                                 is written then
     */
    public static void encode(Frame frame, ByteBuffer out) {
        int nameLength = (int) Frame.utf8Length(frame.name());
        if (out.remaining() < size(nameLength, frame.content().length)) {
            throw new BufferOverflowException();
        }
        ByteBuffer bigEndian = out.order() == ByteOrder.BIG_ENDIAN ? out : out.duplicate().order(ByteOrder.BIG_ENDIAN);
        write(frame, nameLength, bigEndian);
        out.position(bigEndian.position());
    }

    /**
     * Encodes {@code frame} as three buffers for one gathering write, in order: every byte before the
     * content, the content itself, and the CRC. The content is wrapped, not copied (a {@link Frame}
     * owns an array nobody changes); the two others share one small array. Their bytes in a row are
     * exactly those of {@link #encode(Frame)}: a sender of large frames saves a copy of the content
     * and a buffer its size.
     *
     * @return three buffers in read mode, {@link #encodedSize(Frame)} bytes remaining in all
     * @since 1.5
     */
    public static ByteBuffer[] encodeGathered(Frame frame) {
        int nameLength = (int) Frame.utf8Length(frame.name());
        byte[] content = frame.content();
        int headerBytes = size(nameLength, 0) - FrameDecoder.CRC_BYTES;
        byte[] around = new byte[headerBytes + FrameDecoder.CRC_BYTES];
        ByteBuffer header = ByteBuffer.wrap(around, 0, headerBytes);
        putHead(frame, nameLength, content.length, header);
        CRC32C crc = new CRC32C();
        crc.update(around, FrameDecoder.LENGTH_FIELD_BYTES, headerBytes - FrameDecoder.LENGTH_FIELD_BYTES);
        crc.update(content, 0, content.length);
        ByteBuffer trailer = ByteBuffer.wrap(around, headerBytes, FrameDecoder.CRC_BYTES).slice();
        trailer.putInt(0, (int) crc.getValue());
        return new ByteBuffer[] {header.flip(), ByteBuffer.wrap(content), trailer};
    }

    private static int size(long nameBytes, int contentBytes) {
        // Frame's constructor guarantees this fits in an int.
        return (int) (FrameDecoder.LENGTH_FIELD_BYTES + FrameDecoder.MIN_LENGTH + nameBytes + contentBytes);
    }

    /** Every field before the content: length, version, type, flags, corrId, the name, contentLen. */
    private static void putHead(Frame frame, int nameLength, int contentLength, ByteBuffer out) {
        out.putInt(FrameDecoder.MIN_LENGTH + nameLength + contentLength)
                .put((byte) Frame.VERSION)
                .put((byte) frame.type().code())
                .putShort((short) 0)
                .putLong(frame.corrId())
                .putShort((short) nameLength);
        String name = frame.name();
        if (nameLength == name.length()) {
            for (int i = 0; i < nameLength; i++) {
                out.put((byte) name.charAt(i)); // ASCII, the usual name: no array per frame
            }
        } else {
            out.put(name.getBytes(UTF_8));
        }
        out.putInt(contentLength);
    }

    private static void write(Frame frame, int nameLength, ByteBuffer out) {
        byte[] content = frame.content();
        int start = out.position();
        putHead(frame, nameLength, content.length, out);
        out.put(content);
        CRC32C crc = new CRC32C();
        int covered = start + FrameDecoder.LENGTH_FIELD_BYTES;
        if (out.hasArray()) {
            crc.update(out.array(), out.arrayOffset() + covered, out.position() - covered);
        } else {
            crc.update(out.duplicate().limit(out.position()).position(covered));
        }
        out.putInt((int) crc.getValue());
    }
}
