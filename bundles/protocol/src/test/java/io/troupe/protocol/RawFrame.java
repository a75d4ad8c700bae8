package io.troupe.protocol;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.zip.CRC32C;

/**
 * Builds frame bytes field by field, independently of {@link FrameEncoder}, so that tests can write
 * both valid frames and frames with chosen faults. Fields not set are derived from the others as a
 * correct encoder would: length from the bytes, nameLen and contentLen from the arrays, crc over
 * version through content.
 */
final class RawFrame {

    private Long length;
    private int version = 1;
    private int type = FrameType.SEND.code();
    private int flags;
    private long corrId;
    private byte[] name = new byte[0];
    private Integer nameLen;
    private byte[] content = new byte[0];
    private Long contentLen;
    private Integer crc;
    private int crcXor;

    static RawFrame of(FrameType type) {
        return new RawFrame().type(type.code());
    }

    RawFrame length(long value) {
        length = value;
        return this;
    }

    RawFrame version(int value) {
        version = value;
        return this;
    }

    RawFrame type(int value) {
        type = value;
        return this;
    }

    RawFrame flags(int value) {
        flags = value;
        return this;
    }

    RawFrame corrId(long value) {
        corrId = value;
        return this;
    }

    RawFrame name(String value) {
        name = value.getBytes(UTF_8);
        return this;
    }

    RawFrame name(byte[] value) {
        name = value.clone();
        return this;
    }

    RawFrame nameLen(int value) {
        nameLen = value;
        return this;
    }

    RawFrame content(byte[] value) {
        content = value.clone();
        return this;
    }

    RawFrame contentLen(long value) {
        contentLen = value;
        return this;
    }

    /** Writes this exact crc instead of the computed one. */
    RawFrame crc(int value) {
        crc = value;
        return this;
    }

    /** Writes the computed crc with these bits flipped. */
    RawFrame corruptCrc() {
        crcXor = 0x0000_0100;
        return this;
    }

    byte[] bytes() {
        ByteBuffer body = ByteBuffer.allocate(18 + name.length + content.length)
                .put((byte) version)
                .put((byte) type)
                .putShort((short) flags)
                .putLong(corrId)
                .putShort((short) (nameLen != null ? nameLen : name.length))
                .put(name)
                .putInt((int) (contentLen != null ? contentLen : content.length))
                .put(content);
        CRC32C checksum = new CRC32C();
        checksum.update(body.array());
        int crcValue = crc != null ? crc : (int) checksum.getValue() ^ crcXor;
        long lengthValue = length != null ? length : body.capacity() + 4L;
        return ByteBuffer.allocate(4 + body.capacity() + 4)
                .putInt((int) lengthValue)
                .put(body.array())
                .putInt(crcValue)
                .array();
    }

    /** Parses a hex dump; whitespace is ignored and {@code #} starts a comment to the end of the line. */
    static byte[] hex(String dump) {
        return HexFormat.of().parseHex(dump.replaceAll("#[^\\n]*", "").replaceAll("\\s+", ""));
    }

    static byte[] lengthPrefix(long length) {
        return ByteBuffer.allocate(4).putInt((int) length).array();
    }
}
