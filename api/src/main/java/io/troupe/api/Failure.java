package io.troupe.api;

import java.util.Objects;

/**
 * A reply that reports failure instead of a result. Handlers reply with it to reject their input
 * (code {@link ErrorCode#BAD_REQUEST}); the runtime replies with it when it cannot deliver a request.
 * An {@linkplain ActorRef#ask ask} that receives it fails with a {@link TroupeException}.
 *
 * <p><b>Threading:</b> an immutable record of two strings; any thread, and safe to send between
 * actors and bundles.
 *
 * @param code   a stable, dotted error code such as {@code bad.request}
 * @param detail a human-readable explanation, never {@code null}
 */
public record Failure(String code, String detail) {

    public Failure {
        Objects.requireNonNull(code, "code");
        detail = detail == null ? "" : detail;
    }

    /** A {@link ErrorCode#BAD_REQUEST} failure. */
    public static Failure badRequest(String detail) {
        return new Failure(ErrorCode.BAD_REQUEST, detail);
    }

    /** This failure as an exception. */
    public TroupeException toException() {
        return new TroupeException(code, detail);
    }
}
