package io.troupe.protocol;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.util.Arrays;

/**
 * Decodes the UTF-8 names of one connection's frames. A connection sends the same few names over
 * and over, so the last name decoded is remembered and its string returned again when the next
 * name has the same bytes: no decoding and no allocation for the common case. An ASCII name is
 * turned into a string directly; only other names go through a strict {@link CharsetDecoder}
 * (malformed input is an error, never replaced).
 *
 * <p><b>Threading:</b> not thread-safe; one per {@link FrameDecoder}.
 */
final class NameDecoder {

    /** Longer names are decoded every time rather than remembered. */
    private static final int MAX_REMEMBERED = 256;

    private static final byte[] NO_BYTES = new byte[0];

    /** Made at the first name that is not ASCII: most sessions never see one, and an idle one holds none. */
    private CharsetDecoder utf8;
    private byte[] lastBytes = NO_BYTES;
    private String lastName = "";

    /**
     * The name of {@code length} bytes at absolute index {@code at} of {@code in}; moves no position.
     *
     * @throws CharacterCodingException if the bytes are not valid UTF-8
     */
    String decode(ByteBuffer in, int at, int length) throws CharacterCodingException {
        return decode(in, at, length, true);
    }

    /**
     * As {@link #decode(ByteBuffer, int, int)}; with {@code remember} false, a name that comes once (a HELLO's
     * tenant) is decoded without replacing the one remembered, so that an idle connection keeps no copy of it.
     */
    String decode(ByteBuffer in, int at, int length, boolean remember) throws CharacterCodingException {
        if (length == 0) {
            return "";
        }
        if (sameAsLast(in, at, length)) {
            return lastName;
        }
        byte[] bytes = new byte[length];
        in.get(at, bytes);
        String name = isAscii(bytes) ? new String(bytes, ISO_8859_1) : utf8().decode(ByteBuffer.wrap(bytes)).toString();
        if (remember && length <= MAX_REMEMBERED) {
            lastBytes = bytes;
            lastName = name;
        }
        return name;
    }

    private CharsetDecoder utf8() {
        if (utf8 == null) {
            utf8 = UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT);
        }
        return utf8;
    }

    private boolean sameAsLast(ByteBuffer in, int at, int length) {
        byte[] last = lastBytes;
        if (last.length != length) {
            return false;
        }
        if (in.hasArray()) {
            int from = in.arrayOffset() + at;
            return Arrays.equals(in.array(), from, from + length, last, 0, length);
        }
        for (int i = 0; i < length; i++) {
            if (in.get(at + i) != last[i]) {
                return false;
            }
        }
        return true;
    }

    private static boolean isAscii(byte[] bytes) {
        for (byte b : bytes) {
            if (b < 0) {
                return false;
            }
        }
        return true;
    }
}
