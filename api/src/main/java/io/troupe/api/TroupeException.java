package io.troupe.api;

/**
 * A failure that carries a stable error code (see {@link ErrorCode}).
 *
 * <p><b>Threading:</b> immutable.
 */
public class TroupeException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String code;

    public TroupeException(String code, String detail) {
        super(code + ": " + detail);
        this.code = code;
    }

    public TroupeException(String code, String detail, Throwable cause) {
        super(code + ": " + detail, cause);
        this.code = code;
    }

    /** The error code, for example {@code no.handler}. */
    public String code() {
        return code;
    }

    /** The human-readable part of the message, without the code. */
    public String detail() {
        String message = getMessage();
        return message.substring(code.length() + 2);
    }
}
