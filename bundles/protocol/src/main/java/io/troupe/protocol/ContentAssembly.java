package io.troupe.protocol;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * The content of one frame taken in as it arrives, once its header has: the bytes go straight into
 * the array the {@link Frame} will carry, the checksum runs over them as they come, and the frame is
 * made when its last content byte and its four CRC bytes are in. A large frame so costs one copy of
 * its content, where waiting for all of it in the connection's input buffer costs two (into that
 * buffer, then out into the frame's array).
 *
 * <p>The array grows with what arrives, as the input buffer did: it starts at
 * {@value #INITIAL_BYTES} bytes or twice what is there, whichever is more (the content's length when
 * that is less), and grows to twice its size, or to what has arrived when that is more, ending at
 * exactly the content's length. So a peer that sends the header of a frame of the largest size and
 * stops makes the server hold about what it sent, not the size it announced; a frame up to
 * {@value #INITIAL_BYTES} bytes, or one that is mostly there when its header is, is copied once.
 *
 * <pre>
 *   header (checked, consumed, in the CRC) ─► content[filled..) ◄─ each read's bytes ─► crc bytes ─► Frame
 * </pre>
 *
 * <p><b>Threading:</b> not thread-safe; one {@link FrameDecoder}'s, on that decoder's thread.
 */
final class ContentAssembly {

    /** The least the content's array starts at (unless the content is shorter). */
    static final int INITIAL_BYTES = 64 * 1024;

    private final FrameType type;
    private final long corrId;
    private final String name;
    private final int contentLength;
    /** Grows to {@link #contentLength}; the frame's own array once full. */
    private byte[] content;
    /** Runs over version through content; the header's part is in when the assembly is made. */
    private final CRC32C crc;
    private int filled;
    private int crcBytesRead;
    private int expectedCrc;

    /**
     * @param arrived the bytes of the content already there, for the array's first size
     */
    ContentAssembly(FrameType type, long corrId, String name, int contentLength, int arrived, CRC32C crc) {
        this.type = type;
        this.corrId = corrId;
        this.name = name;
        this.contentLength = contentLength;
        this.content = new byte[(int) Math.min(contentLength, Math.max(INITIAL_BYTES, 2L * arrived))];
        this.crc = crc;
    }

    /** The size of the content's array now; for tests. */
    int capacity() {
        return content.length;
    }

    /**
     * Consumes from {@code in} what belongs to this frame, and no more.
     *
     * @return the frame once its last byte is in; null while bytes are missing (all of {@code in}
     *         consumed)
     * @throws FrameException {@code frame.crc} when the checksum does not match
     */
    Frame takeFrom(ByteBuffer in) {
        int missing = contentLength - filled;
        if (missing > 0) {
            int taken = Math.min(missing, in.remaining());
            if (filled + taken > content.length) {
                content = Arrays.copyOf(content, (int) Math.min(contentLength,
                        Math.max(2L * content.length, filled + taken)));
            }
            int at = in.position();
            in.get(at, content, filled, taken);
            in.position(at + taken);
            crc.update(content, filled, taken);
            filled += taken;
        }
        while (filled == contentLength && crcBytesRead < FrameDecoder.CRC_BYTES && in.hasRemaining()) {
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
