package io.troupe.host.log;

import java.nio.charset.StandardCharsets;

/**
 * Appends text to a {@link RecordBytes} as a JSON string (RFC 8259), quotes included, in UTF-8.
 *
 * <ul>
 * <li>{@code "} and {@code \} are escaped with a backslash; the control characters U+0000 to U+001F
 *     as {@code \b \t \n \f \r} where JSON has a short form, else as <code>&#92;u00XX</code>.</li>
 * <li>Every other character is written as its UTF-8 bytes, unescaped: DEL, U+2028 and U+2029 are
 *     valid in a JSON string; a surrogate pair becomes the four bytes of its code point.</li>
 * <li>A lone surrogate, which has no UTF-8 form, becomes U+FFFD (the replacement character), so that
 *     every line stays valid UTF-8 that any JSON parser accepts.</li>
 * </ul>
 *
 * Text that needs neither escaping nor encoding (printable ASCII, the common case) goes through
 * {@link RecordBytes#append(String)} and allocates nothing.
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
final class JsonString {

    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private JsonString() {
    }

    /** Appends {@code text} as a JSON string, quotes included. */
    static void append(RecordBytes out, String text) {
        out.append((byte) '"');
        if (isPlainAscii(text)) {
            out.append(text);
        } else {
            appendEncoded(out, text);
        }
        out.append((byte) '"');
    }

    /**
     * Appends well-formed UTF-8 (as {@link String#getBytes} makes it) as a JSON string, quotes included:
     * multi-byte sequences are copied, ASCII is escaped as {@link #append(RecordBytes, String)} does.
     */
    static void appendUtf8(RecordBytes out, byte[] utf8) {
        out.append((byte) '"');
        if (needsNoEscape(utf8)) {
            out.append(utf8);
        } else {
            for (byte b : utf8) {
                if (b >= 0) {
                    appendAscii(out, (char) b);
                } else {
                    out.append(b); // part of a multi-byte sequence
                }
            }
        }
        out.append((byte) '"');
    }

    private static boolean isPlainAscii(String text) {
        for (int i = 0, n = text.length(); i < n; i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\') {
                return false;
            }
        }
        return true;
    }

    private static boolean needsNoEscape(byte[] utf8) {
        for (byte b : utf8) {
            if (b >= 0 && (b < 0x20 || b == '"' || b == '\\')) {
                return false;
            }
        }
        return true;
    }

    private static void appendEncoded(RecordBytes out, String text) {
        for (int i = 0, n = text.length(); i < n; i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                appendAscii(out, c);
            } else if (c < 0x800) {
                out.append((byte) (0xC0 | c >> 6));
                out.append((byte) (0x80 | c & 0x3F));
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(text.charAt(i + 1))) {
                int codePoint = Character.toCodePoint(c, text.charAt(++i));
                out.append((byte) (0xF0 | codePoint >> 18));
                out.append((byte) (0x80 | codePoint >> 12 & 0x3F));
                out.append((byte) (0x80 | codePoint >> 6 & 0x3F));
                out.append((byte) (0x80 | codePoint & 0x3F));
            } else {
                appendThreeBytes(out, Character.isSurrogate(c) ? '\uFFFD' : c);
            }
        }
    }

    private static void appendThreeBytes(RecordBytes out, char c) {
        out.append((byte) (0xE0 | c >> 12));
        out.append((byte) (0x80 | c >> 6 & 0x3F));
        out.append((byte) (0x80 | c & 0x3F));
    }

    private static void appendAscii(RecordBytes out, char c) {
        switch (c) {
            case '"' -> appendEscape(out, '"');
            case '\\' -> appendEscape(out, '\\');
            case '\b' -> appendEscape(out, 'b');
            case '\t' -> appendEscape(out, 't');
            case '\n' -> appendEscape(out, 'n');
            case '\f' -> appendEscape(out, 'f');
            case '\r' -> appendEscape(out, 'r');
            default -> {
                if (c < 0x20) {
                    appendEscape(out, 'u');
                    out.append((byte) '0');
                    out.append((byte) '0');
                    out.append(HEX[c >> 4]);
                    out.append(HEX[c & 0xF]);
                } else {
                    out.append((byte) c);
                }
            }
        }
    }

    private static void appendEscape(RecordBytes out, char escaped) {
        out.append((byte) '\\');
        out.append((byte) escaped);
    }
}
