package io.troupe.client;

import java.util.Objects;
import java.util.Optional;

import io.troupe.protocol.ErrorCode;

/**
 * The server answered with an ERROR frame, or the client refused a frame the server would reject:
 * carries the protocol's error code ({@code auth.failed}, {@code no.handler}, {@code mailbox.full},
 * ...) and the detail the server wrote.
 *
 * <p>It has no stack trace: it is created on the loop thread, whose stack says nothing about the
 * caller.
 *
 * <p><b>Threading:</b> immutable; any thread.
 */
public final class TroupeClientException extends Exception {

    private static final long serialVersionUID = 1L;

    private final String code;
    private final String detail;

    /**
     * @param code   the error code, as on the wire (a code unknown to this version is kept as is)
     * @param detail the human-readable detail; may be empty
     */
    public TroupeClientException(String code, String detail) {
        super(Objects.requireNonNull(code, "code") + ": " + Objects.requireNonNull(detail, "detail"), null, true,
                false);
        this.code = code;
        this.detail = detail;
    }

    /** The error code as sent by the server, for example {@code "auth.failed"}. */
    public String code() {
        return code;
    }

    /** The server's explanation (the ERROR frame's content as UTF-8); may be empty. */
    public String detail() {
        return detail;
    }

    /** The code as a known {@link ErrorCode}; empty when a newer server sent one this version lacks. */
    public Optional<ErrorCode> errorCode() {
        return ErrorCode.fromCode(code);
    }
}
