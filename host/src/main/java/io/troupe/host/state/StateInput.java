package io.troupe.host.state;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads the format's primitives from a byte array, checking every length against what remains: a
 * truncated or corrupt input fails with a {@link StateFault} naming the byte offset, and a length read
 * from the input never allocates more than the input could fill. The reverse of {@link StateBuffer}; a
 * string's bytes are checked to be well-formed UTF-8 (allowing the lone surrogates {@link StateBuffer}
 * writes).
 *
 * <p><b>Threading:</b> one per {@link StateCodec#decode} call, confined to its thread.
 */
final class StateInput {

    private static final VarHandle INT_BE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG_BE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private final byte[] bytes;
    private int position;

    StateInput(byte[] bytes, int position) {
        this.bytes = bytes;
        this.position = position;
    }

    int position() {
        return position;
    }

    int remaining() {
        return bytes.length - position;
    }

    int readByte() {
        if (position == bytes.length) {
            throw truncated(1, "a byte");
        }
        return bytes[position++];
    }

    int readUnsignedByte() {
        return readByte() & 0xFF;
    }

    /** An unsigned varint that must fit in 32 bits. */
    int readVarInt() {
        int start = position;
        int result = 0;
        for (int shift = 0; shift < 35; shift += 7) {
            int next = readByte();
            result |= (next & 0x7F) << shift;
            if (next >= 0) {
                if (shift == 28 && (next & 0x70) != 0) {
                    throw StateFault.unreadable(start, "a varint does not fit in 32 bits");
                }
                return result;
            }
        }
        throw StateFault.unreadable(start, "a 32-bit varint runs past 5 bytes");
    }

    /** An unsigned varint that must fit in 64 bits. */
    long readVarLong() {
        int start = position;
        long result = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            int next = readByte();
            result |= (long) (next & 0x7F) << shift;
            if (next >= 0) {
                if (shift == 63 && next > 1) {
                    throw StateFault.unreadable(start, "a varint does not fit in 64 bits");
                }
                return result;
            }
        }
        throw StateFault.unreadable(start, "a 64-bit varint runs past 10 bytes");
    }

    int readZigZagInt() {
        int encoded = readVarInt();
        return (encoded >>> 1) ^ -(encoded & 1);
    }

    long readZigZagLong() {
        long encoded = readVarLong();
        return (encoded >>> 1) ^ -(encoded & 1);
    }

    int readFixedInt() {
        require(4, "a 4-byte number");
        int value = (int) INT_BE.get(bytes, position);
        position += 4;
        return value;
    }

    long readFixedLong() {
        require(8, "an 8-byte number");
        long value = (long) LONG_BE.get(bytes, position);
        position += 8;
        return value;
    }

    /**
     * A count of items that take at least {@code minItemBytes} each: it cannot exceed what remains, so a
     * corrupt count fails here rather than allocating.
     */
    int readCount(String what, int minItemBytes) {
        int start = position;
        int count = readVarInt();
        if (count < 0 || (long) count * minItemBytes > remaining()) {
            throw StateFault.unreadable(start, what + " of " + Integer.toUnsignedString(count)
                    + " items needs at least "
                    + Integer.toUnsignedLong(count) * minItemBytes + " bytes, only " + remaining() + " remain");
        }
        return count;
    }

    /** A varint length, then that many bytes. */
    byte[] readLengthPrefixed(String what) {
        int length = readCount(what, 1);
        byte[] copy = Arrays.copyOfRange(bytes, position, position + length);
        position += length;
        return copy;
    }

    /** A varint length, then that many bytes of UTF-8. */
    String readString() {
        int length = readCount("a string", 1);
        int start = position;
        int end = start + length;
        for (int i = start; i < end; i++) {
            if (bytes[i] < 0) {
                return decodeUtf8(start, end);
            }
        }
        position = end;
        return new String(bytes, start, length, StandardCharsets.ISO_8859_1);
    }

    private String decodeUtf8(int start, int end) {
        char[] chars = new char[end - start];
        int count = 0;
        int at = start;
        while (at < end) {
            int lead = bytes[at] & 0xFF;
            if (lead < 0x80) {
                chars[count++] = (char) lead;
                at++;
            } else if (lead >= 0xC2 && lead <= 0xDF) {
                chars[count++] = (char) ((lead & 0x1F) << 6 | continuation(at, 1, end, 0x80, 0xBF));
                at += 2;
            } else if (lead >= 0xE0 && lead <= 0xEF) {
                int second = continuation(at, 1, end, lead == 0xE0 ? 0xA0 : 0x80, 0xBF);
                int third = continuation(at, 2, end, 0x80, 0xBF);
                chars[count++] = (char) ((lead & 0x0F) << 12 | second << 6 | third);
                at += 3;
            } else if (lead >= 0xF0 && lead <= 0xF4) {
                int second = continuation(at, 1, end, lead == 0xF0 ? 0x90 : 0x80, lead == 0xF4 ? 0x8F : 0xBF);
                int third = continuation(at, 2, end, 0x80, 0xBF);
                int fourth = continuation(at, 3, end, 0x80, 0xBF);
                int codePoint = (lead & 0x07) << 18 | second << 12 | third << 6 | fourth;
                chars[count++] = Character.highSurrogate(codePoint);
                chars[count++] = Character.lowSurrogate(codePoint);
                at += 4;
            } else {
                throw StateFault.unreadable(at, String.format("malformed UTF-8 in a string: byte 0x%02x", lead));
            }
        }
        position = end;
        return new String(chars, 0, count);
    }

    /** The low six bits of the continuation byte at {@code lead + index}, which must lie in [min, max]. */
    private int continuation(int lead, int index, int end, int min, int max) {
        int at = lead + index;
        int next = at < end ? bytes[at] & 0xFF : -1;
        if (next < min || next > max) {
            throw StateFault.unreadable(at, "malformed UTF-8 in a string: a sequence starting with byte "
                    + String.format("0x%02x", bytes[lead] & 0xFF) + " is cut short or invalid");
        }
        return next & 0x3F;
    }

    private void require(int count, String what) {
        if (remaining() < count) {
            throw truncated(count, what);
        }
    }

    private StateFault truncated(int count, String what) {
        return StateFault.unreadable(position, "truncated: " + what + " needs " + count + " bytes, "
                + remaining() + " remain");
    }
}
