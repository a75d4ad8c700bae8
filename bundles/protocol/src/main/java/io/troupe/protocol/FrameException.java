package io.troupe.protocol;

import java.util.Objects;

/**
 * A frame the peer sent violates the protocol. Carries what the ERROR answer needs: the
 * {@linkplain #code() code}, a {@linkplain #detail() detail} for humans, and the
 * {@linkplain #corrId() corrId} of the offending frame when it could be trusted, else 0.
 *
 * <p>The decoder reports a corrId only once the frame's checksum and version have been verified;
 * errors found earlier (length, checksum, version) carry 0.
 *
 * <p>Unchecked so that it can cross callbacks, but always thrown on purpose: catch it where bytes
 * enter, answer with {@link #toErrorFrame()}, and close when
 * {@code code().closesConnection()}. It records no stack trace, since it describes the peer's fault,
 * not a bug here, and a hostile peer must not make it expensive.
 *
 * <p><b>Threading:</b> immutable; any thread.
 */
public final class FrameException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final ErrorCode code;
    private final String detail;
    private final long corrId;

    /**
     * @param code   the error code to answer with
     * @param detail a short human-readable explanation
     * @param corrId the offending frame's corrId, or 0 when unknown
     */
    public FrameException(ErrorCode code, String detail, long corrId) {
        super(Objects.requireNonNull(code, "code").code() + ": " + Objects.requireNonNull(detail, "detail"),
                null, false, false);
        this.code = code;
        this.detail = detail;
        this.corrId = corrId;
    }

    /** A failure with no known corrId. */
    public FrameException(ErrorCode code, String detail) {
        this(code, detail, 0L);
    }

    /** The error code to answer with. */
    public ErrorCode code() {
        return code;
    }

    /** A short human-readable explanation, sent as the ERROR frame's content. */
    public String detail() {
        return detail;
    }

    /** The offending frame's corrId (unsigned), or 0 when it could not be read or trusted. */
    public long corrId() {
        return corrId;
    }

    /** The ERROR frame that reports this failure to the peer. */
    public Frame toErrorFrame() {
        return Frame.error(corrId, code, detail);
    }
}
