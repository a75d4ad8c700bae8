package io.troupe.server.itest;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameEncoder;
import io.troupe.testsupport.TestClient;

/**
 * Frames with one thing wrong, built from a valid encoding (the layout is drawn in
 * {@link io.troupe.protocol.FrameDecoder}). Except for {@link #withBadChecksum}, the checksum is
 * recomputed so that the fault under test is the first one the decoder finds.
 *
 * <p><b>Threading:</b> stateless.
 */
final class RawFrames {

    private static final int VERSION_AT = 4;
    private static final int TYPE_AT = 5;
    private static final int NAME_LENGTH_AT = 16;

    private RawFrames() {
    }

    static byte[] withBadChecksum(Frame frame) {
        byte[] bytes = TestClient.bytes(frame);
        bytes[bytes.length - 1] ^= 0x5A;
        return bytes;
    }

    static byte[] withVersion(Frame frame, int version) {
        byte[] bytes = TestClient.bytes(frame);
        bytes[VERSION_AT] = (byte) version;
        return withChecksum(bytes);
    }

    static byte[] withType(Frame frame, int type) {
        byte[] bytes = TestClient.bytes(frame);
        bytes[TYPE_AT] = (byte) type;
        return withChecksum(bytes);
    }

    static byte[] withNameLength(Frame frame, int nameLength) {
        byte[] bytes = TestClient.bytes(frame);
        ByteBuffer.wrap(bytes).putShort(NAME_LENGTH_AT, (short) nameLength);
        return withChecksum(bytes);
    }

    /** Only the length field (and {@code bodyBytes} bytes of a body that would be far longer). */
    static byte[] lengthFieldOnly(long length, int bodyBytes) {
        ByteBuffer buffer = ByteBuffer.allocate(4 + bodyBytes);
        buffer.putInt((int) length);
        return buffer.array();
    }

    static int encodedSize(Frame frame) {
        return FrameEncoder.encodedSize(frame);
    }

    private static byte[] withChecksum(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, 4, bytes.length - 8);
        ByteBuffer.wrap(bytes).putInt(bytes.length - 4, (int) crc.getValue());
        return bytes;
    }
}
