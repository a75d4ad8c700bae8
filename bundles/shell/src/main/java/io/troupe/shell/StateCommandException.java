package io.troupe.shell;

/**
 * A state command that could not be done: a code for scripts and a detail for people, printed as
 * {@code ERROR <code>: <detail>}.
 *
 * <p><b>Threading:</b> immutable.
 */
final class StateCommandException extends Exception {

    /** No StateStore service is registered. */
    static final String UNAVAILABLE = "state.unavailable";
    /** The command's arguments are wrong. */
    static final String USAGE = "state.usage";
    /** The store or a file could not be read or written. */
    static final String IO = "state.io";
    /** An import file is not a state export this Troupe reads. */
    static final String FORMAT = "state.format";
    /** The export file exists already. */
    static final String EXISTS = "state.exists";

    private static final long serialVersionUID = 1L;

    private final String code;
    private final String detail;

    StateCommandException(String code, String detail) {
        super(code + ": " + detail, null, false, false);
        this.code = code;
        this.detail = detail;
    }

    String code() {
        return code;
    }

    String detail() {
        return detail;
    }
}
