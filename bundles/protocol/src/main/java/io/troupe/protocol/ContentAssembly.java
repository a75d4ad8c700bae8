package io.troupe.protocol;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The content of one frame taken in as it arrives, once its header has: the bytes go straight into
 * the array the {@link Frame} will carry, the checksum runs over them as they come, and the frame is
 * made when its last content byte and its four CRC bytes are in. A large frame so costs one copy of
 * its content, where waiting for all of it in the connection's input buffer costs two (into that
 * buffer, then out into the frame's array), and the connection holds no buffer as large as the frame.
 *
 * <pre>
 *   header (checked, consumed, in the CRC) ─► content[filled..) ◄─ each read's bytes ─► crc bytes ─► Frame
 * </pre>
 *
 * <p><b>Threading:</b> not thread-safe; one {@link FrameDecoder}'s, on that decoder's thread.
 */
final class ContentAssembly {

    private final FrameType type;
    private final long corrId;
    private final String name;
    private final byte[] content;
    /** Runs over version through content; the header's part is in when the assembly is made. */
    private final CRC32C crc;
    private int filled;
    private int crcBytesRead;
    private int expectedCrc;

    ContentAssembly(FrameType type, long corrId, String name, int contentLength, CRC32C crc) {
        this.type = type;
        this.corrId = corrId;
        this.name = name;
        this.content = new byte[contentLength];
        this.crc = crc;
    }

    /**
     * Consumes from {@code in} what belongs to this frame, and no more.
     *
     * @return the frame once its last byte is in; null while bytes are missing (all of {@code in}
     *         consumed)
     * @throws FrameException {@code frame.crc} when the checksum does not match
     */
    Frame takeFrom(ByteBuffer in) {
        int missing = content.length - filled;
        if (missing > 0) {
            int taken = Math.min(missing, in.remaining());
            int at = in.position();
            in.get(at, content, filled, taken);
            in.position(at + taken);
            crc.update(content, filled, taken);
            filled += taken;
        }
        while (filled == content.length && crcBytesRead < FrameDecoder.CRC_BYTES && in.hasRemaining()) {
            expectedCrc = (expectedCrc << 8) | (in.get() & 0xFF);
            crcBytesRead++;
        }
        if (crcBytesRead < FrameDecoder.CRC_BYTES) {
            return null;
        }
        int actual = (int) crc.getValue();
        if (actual != expectedCrc) {
            throw new FrameException(ErrorCode.FRAME_CRC, String.format(
                    "CRC-32C is 0x%08x, the frame says 0x%08x", actual, expectedCrc));
        }
        return new Frame(type, corrId, name, content);
    }
}
