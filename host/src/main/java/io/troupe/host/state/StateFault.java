package io.troupe.host.state;

import java.util.ArrayDeque;

/**
 * A failure deep inside an encode or a decode, on its way up to {@link StateCodec}. Each container it
 * crosses prepends where the failing value sits in it ({@code [3]}, {@code .totals}), so the path is
 * built only when something fails, never on the way down; the codec then turns it into an
 * {@link UnstorableStateException} or an {@link UnreadableStateException} that names the actor.
 *
 * <p><b>Threading:</b> confined to the encoding or decoding thread.
 */
final class StateFault extends RuntimeException {

    private static final long serialVersionUID = 1L;
    private static final int MAX_KEY_CHARS = 40;

    private final transient ArrayDeque<String> segments = new ArrayDeque<>();
    /** The offending class when encoding; null when decoding. */
    private final String type;
    private final String advice;
    /** Where the decoder was in the bytes; -1 when encoding. */
    private final int offset;

    private StateFault(String what, String type, String advice, int offset) {
        super(what, null, false, false);
        this.type = type;
        this.advice = advice;
        this.offset = offset;
    }

    /** A value that cannot be stored: {@code what} the state holds, and what to do instead. */
    static StateFault unstorable(String type, String what, String advice) {
        return new StateFault(what, type, advice, -1);
    }

    /** Bytes that cannot be decoded, at byte {@code offset}: {@code reason}. */
    static StateFault unreadable(int offset, String reason) {
        return new StateFault(reason, null, null, offset);
    }

    /** Prepends the element at {@code index} of a list, set or array. */
    StateFault atIndex(int index) {
        segments.addFirst("[" + index + "]");
        return this;
    }

    /** Prepends the value stored under {@code key} in a map. */
    StateFault atKey(Object key) {
        segments.addFirst(keySegment(key));
        return this;
    }

    /** Prepends the key of the {@code index}th entry of a map. */
    StateFault atKeyOf(int index) {
        segments.addFirst("{key " + index + "}");
        return this;
    }

    /** Prepends the content of an optional. */
    StateFault inOptional() {
        segments.addFirst(".get()");
        return this;
    }

    String path() {
        StringBuilder path = new StringBuilder("$");
        segments.forEach(path::append);
        return path.toString();
    }

    String what() {
        return getMessage();
    }

    String type() {
        return type;
    }

    String advice() {
        return advice;
    }

    int offset() {
        return offset;
    }

    /** {@code .name} for a plain identifier, {@code ["any text"]} for another string, {@code {42}} otherwise. */
    private static String keySegment(Object key) {
        if (key instanceof String text) {
            if (isIdentifier(text)) {
                return "." + text;
            }
            return "[\"" + shorten(text).replace("\\", "\\\\").replace("\"", "\\\"") + "\"]";
        }
        return "{" + shorten(describe(key)) + "}";
    }

    private static String describe(Object key) {
        try {
            return String.valueOf(key);
        } catch (RuntimeException e) {
            return key.getClass().getName();
        }
    }

    private static boolean isIdentifier(String text) {
        if (text.isEmpty() || text.length() > MAX_KEY_CHARS || !Character.isJavaIdentifierStart(text.charAt(0))) {
            return false;
        }
        for (int i = 1; i < text.length(); i++) {
            if (!Character.isJavaIdentifierPart(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static String shorten(String text) {
        return text.length() <= MAX_KEY_CHARS ? text : text.substring(0, MAX_KEY_CHARS) + "…";
    }
}
