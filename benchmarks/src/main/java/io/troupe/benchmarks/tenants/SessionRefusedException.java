package io.troupe.benchmarks.tenants;

import java.io.IOException;

/**
 * The server answered a HELLO (or a request) with an ERROR frame: its code and detail.
 *
 * <p><b>Threading:</b> immutable; any thread.
 */
final class SessionRefusedException extends IOException {

    private static final long serialVersionUID = 1L;

    private final String code;

    SessionRefusedException(String code, String detail) {
        super(code + ": " + detail);
        this.code = code;
    }

    /** The ERROR frame's code, such as {@code auth.failed}. */
    String code() {
        return code;
    }
}
