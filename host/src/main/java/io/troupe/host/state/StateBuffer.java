package io.troupe.host.state;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A growable byte array that writes the format's primitives: bytes, unsigned and zigzag varints (LEB128,
 * seven bits a byte, low group first), big-endian fixed-width numbers and length-prefixed strings in
 * UTF-8. One per {@link StateCodec#encode} call; it doubles when full, so a state of n bytes costs
 * O(log n) copies.
 *
 * <p>A string is written as UTF-8, except that a surrogate without its pair (legal in a Java string,
 * impossible in UTF-8) is written as the three-byte sequence of its code unit, as WTF-8 does, so that
 * every Java string comes back unchanged.
 *
 * <p><b>Threading:</b> confined to the thread that encodes.
 */
final class StateBuffer {

    private static final VarHandle INT_BE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG_BE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    /** Arrays cannot be longer than this on common JVMs. */
    private static final int MAX_CAPACITY = Integer.MAX_VALUE - 8;

    private byte[] bytes;
    private int size;

    StateBuffer(int initialCapacity) {
        bytes = new byte[initialCapacity];
    }

    /** The bytes written so far, in an array of their exact length. */
    byte[] toByteArray() {
        return Arrays.copyOf(bytes, size);
    }

    int size() {
        return size;
    }

    void writeByte(int value) {
        ensure(1);
        bytes[size++] = (byte) value;
    }

    void writeBytes(byte[] source) {
        ensure(source.length);
        System.arraycopy(source, 0, bytes, size, source.length);
        size += source.length;
    }

    /** An unsigned varint of {@code value}, read as unsigned. */
    void writeVarInt(int value) {
        ensure(5);
        while ((value & ~0x7F) != 0) {
            bytes[size++] = (byte) ((value & 0x7F) | 0x80);
            value >>>= 7;
        }
        bytes[size++] = (byte) value;
    }

    /** An unsigned varint of {@code value}, read as unsigned. */
    void writeVarLong(long value) {
        ensure(10);
        while ((value & ~0x7FL) != 0) {
            bytes[size++] = (byte) ((value & 0x7F) | 0x80);
            value >>>= 7;
        }
        bytes[size++] = (byte) value;
    }

    /** A signed int as a zigzag varint: small magnitudes of either sign take few bytes. */
    void writeZigZagInt(int value) {
        writeVarInt((value << 1) ^ (value >> 31));
    }

    void writeZigZagLong(long value) {
        writeVarLong((value << 1) ^ (value >> 63));
    }

    void writeFixedInt(int value) {
        ensure(4);
        INT_BE.set(bytes, size, value);
        size += 4;
    }

    void writeFixedLong(long value) {
        ensure(8);
        LONG_BE.set(bytes, size, value);
        size += 8;
    }

    /** A varint length, then the bytes. */
    void writeLengthPrefixed(byte[] source) {
        writeVarInt(source.length);
        writeBytes(source);
    }

    /** The varint length of the string's UTF-8 form, then that form. */
    void writeString(String text) {
        int chars = text.length();
        int utf8Length = chars;
        for (int i = 0; i < chars; i++) {
            char c = text.charAt(i);
            if (c >= 0x80) {
                utf8Length = utf8Length(text, i);
                break;
            }
        }
        writeVarInt(utf8Length);
        ensure(utf8Length);
        if (utf8Length == chars) {
            for (int i = 0; i < chars; i++) {
                bytes[size++] = (byte) text.charAt(i);
            }
        } else {
            writeUtf8(text);
        }
    }

    /** The UTF-8 length of {@code text}, whose first {@code asciiPrefix} chars are ASCII. */
    private static int utf8Length(String text, int asciiPrefix) {
        long length = asciiPrefix;
        for (int i = asciiPrefix, n = text.length(); i < n; i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                length++;
            } else if (c < 0x800) {
                length += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(text.charAt(i + 1))) {
                length += 4;
                i++;
            } else {
                length += 3;
            }
        }
        if (length > MAX_CAPACITY) {
            throw tooLarge("a String of " + text.length() + " chars");
        }
        return (int) length;
    }

    private void writeUtf8(String text) {
        byte[] out = bytes;
        int at = size;
        for (int i = 0, n = text.length(); i < n; i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                out[at++] = (byte) c;
            } else if (c < 0x800) {
                out[at++] = (byte) (0xC0 | c >> 6);
                out[at++] = (byte) (0x80 | c & 0x3F);
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(text.charAt(i + 1))) {
                int codePoint = Character.toCodePoint(c, text.charAt(++i));
                out[at++] = (byte) (0xF0 | codePoint >> 18);
                out[at++] = (byte) (0x80 | codePoint >> 12 & 0x3F);
                out[at++] = (byte) (0x80 | codePoint >> 6 & 0x3F);
                out[at++] = (byte) (0x80 | codePoint & 0x3F);
            } else {
                out[at++] = (byte) (0xE0 | c >> 12);
                out[at++] = (byte) (0x80 | c >> 6 & 0x3F);
                out[at++] = (byte) (0x80 | c & 0x3F);
            }
        }
        size = at;
    }

    private static StateFault tooLarge(String what) {
        return StateFault.unstorable(what, what, "keep bulk data out of actor state");
    }

    private void ensure(int more) {
        if (more > bytes.length - size) {
            grow(more);
        }
    }

    private void grow(int more) {
        long needed = (long) size + more;
        if (needed > MAX_CAPACITY) {
            throw tooLarge("more than " + MAX_CAPACITY + " bytes of encoded state");
        }
        long doubled = Math.max(16L, (long) bytes.length * 2);
        bytes = Arrays.copyOf(bytes, (int) Math.min(MAX_CAPACITY, Math.max(doubled, needed)));
    }
}
