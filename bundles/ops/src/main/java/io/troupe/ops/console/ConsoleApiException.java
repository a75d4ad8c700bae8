package io.troupe.ops.console;

import java.util.Objects;

/**
 * A request the console's JSON API refuses or cannot serve, with the HTTP status, a code and a message that
 * says precisely what was wrong: it becomes the body {@code {"error": code, "message": message}}.
 *
 * <pre>
 *   400 bad.request          a malformed parameter or name (which one, and what it must be)
 *   404 not.found            no such endpoint, plugin, actor or tenant (which)
 *   405 method.not.allowed   GET on an action, POST on a view (the Allow header says what works)
 *   409 conflict             an action that cannot apply now (no earlier revision to roll back to, ...)
 *   500 internal             the action failed (the cause's message)
 *   503 unavailable          what the action needs is not running (the deploy folder, the message server)
 * </pre>
 *
 * <p><b>Threading:</b> immutable.
 */
final class ConsoleApiException extends Exception {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final String code;

    ConsoleApiException(int status, String code, String message) {
        super(Objects.requireNonNull(message, "message"));
        this.status = status;
        this.code = Objects.requireNonNull(code, "code");
    }

    static ConsoleApiException badRequest(String message) {
        return new ConsoleApiException(400, "bad.request", message);
    }

    static ConsoleApiException notFound(String message) {
        return new ConsoleApiException(404, "not.found", message);
    }

    static ConsoleApiException methodNotAllowed(String method, String path, String allowed) {
        return new ConsoleApiException(405, "method.not.allowed", method + " " + path + " is not served; use "
                + allowed);
    }

    static ConsoleApiException conflict(String message) {
        return new ConsoleApiException(409, "conflict", message);
    }

    static ConsoleApiException unavailable(String message) {
        return new ConsoleApiException(503, "unavailable", message);
    }

    static ConsoleApiException internal(String message) {
        return new ConsoleApiException(500, "internal", message);
    }

    /** The HTTP status of the answer. */
    int status() {
        return status;
    }

    /** The machine-readable code: the {@code error} member of the body. */
    String code() {
        return code;
    }
}
