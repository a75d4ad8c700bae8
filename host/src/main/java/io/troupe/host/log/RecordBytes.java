package io.troupe.host.log;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The UTF-8 bytes of one record while it is being rendered: a byte array that grows as needed and
 * is reused for the next record, so that rendering an ordinary line allocates nothing.
 *
 * <p>Text goes in through {@link #append(String)}: ASCII text without allocating, anything else
 * through the JDK's UTF-8 encoder, so a lone surrogate becomes {@code ?} exactly as
 * {@link String#getBytes(java.nio.charset.Charset)} makes it. The thread's name,
 * the same on every record, is encoded once by {@link #threadName}.
 *
 * <p>Threading: confined to one thread; each producer thread owns one (see
 * {@link TroupeLogging#write}).
 */
final class RecordBytes {

    /** Kept for reuse up to this size; a longer record (a big stack trace) gets a fresh array after. */
    static final int RETAINED_BYTES = 64 * 1024;

    /** The UTF-8 of the owning thread's name. */
    final Utf8Memo threadName = new Utf8Memo();

    private byte[] bytes;
    private int length;
    /** The characters of the text being appended. */
    private char[] chars = new char[256];

    RecordBytes(int initialCapacity) {
        bytes = new byte[initialCapacity];
    }

    /** Empties the buffer for the next record. */
    void clear() {
        if (bytes.length > RETAINED_BYTES) {
            bytes = new byte[RETAINED_BYTES];
        }
        if (chars.length > RETAINED_BYTES) {
            chars = new char[RETAINED_BYTES];
        }
        length = 0;
    }

    byte[] array() {
        return bytes;
    }

    int length() {
        return length;
    }

    void append(byte b) {
        ensure(1);
        bytes[length++] = b;
    }

    void append(byte[] source) {
        ensure(source.length);
        System.arraycopy(source, 0, bytes, length, source.length);
        length += source.length;
    }

    /**
     * Appends {@code text} as UTF-8. ASCII text, the common case, takes two loops over a copy of its
     * characters that the JIT compiles to vector instructions (one to find a non-ASCII character,
     * one to narrow), and allocates nothing; other text goes through the JDK's encoder.
     */
    void append(String text) {
        int n = text.length();
        if (chars.length < n) {
            chars = new char[Math.max(n, 2 * chars.length)];
        }
        char[] c = chars;
        text.getChars(0, n, c, 0);
        int any = 0;
        for (int i = 0; i < n; i++) {
            any |= c[i];
        }
        if (any >= 0x80) {
            append(text.getBytes(StandardCharsets.UTF_8));
            return;
        }
        ensure(n);
        byte[] b = bytes;
        int at = length;
        for (int i = 0; i < n; i++) {
            b[at + i] = (byte) c[i];
        }
        length = at + n;
    }

    /** Appends {@code value} as decimal digits, {@code width} of them with leading zeros. */
    void appendDigits(int value, int width) {
        ensure(width);
        for (int i = length + width - 1; i >= length; i--) {
            bytes[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
        length += width;
    }

    /** A copy of the content, for callers that need a record of their own. */
    byte[] toArray() {
        return Arrays.copyOf(bytes, length);
    }

    private void ensure(int more) {
        int needed = length + more;
        if (needed > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(needed, 2 * bytes.length));
        }
    }
}
