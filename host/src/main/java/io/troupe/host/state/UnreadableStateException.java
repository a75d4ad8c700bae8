package io.troupe.host.state;

/**
 * Bytes that are not a state this version can decode: not a state at all (no magic), written by a newer
 * version of the format, truncated, or corrupt (an unknown tag, a length beyond the end, malformed
 * UTF-8, an enum constant that does not exist…). The message names the actor, the byte offset and the
 * path of the value being decoded, e.g.
 *
 * <pre>
 * actor handler:counter.add@acme: stored state (40 bytes) cannot be decoded: unknown tag 0x7f at byte 17 ($.totals[3])
 * </pre>
 *
 * A decode never returns a partial or guessed value: it returns the state that was encoded or throws this.
 *
 * <p><b>Threading:</b> immutable.
 */
public final class UnreadableStateException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String actor;
    private final int offset;

    UnreadableStateException(String actor, int length, StateFault fault) {
        super("actor " + actor + ": stored state (" + length + " bytes) cannot be decoded: " + fault.what()
                + " at byte " + fault.offset() + " (" + fault.path() + ")");
        this.actor = actor;
        this.offset = fault.offset();
    }

    UnreadableStateException(String actor, String message) {
        super("actor " + actor + ": " + message);
        this.actor = actor;
        this.offset = 0;
    }

    /** The actor whose state it is, as the caller named it. */
    public String actor() {
        return actor;
    }

    /** The byte at which decoding failed. */
    public int offset() {
        return offset;
    }
}
