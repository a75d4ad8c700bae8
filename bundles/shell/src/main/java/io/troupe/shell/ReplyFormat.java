package io.troupe.shell;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

import io.troupe.api.ErrorCode;
import io.troupe.api.Failure;
import io.troupe.api.Message;
import io.troupe.api.TroupeException;

/**
 * Turns replies and failures into the text the shell prints: a reply as its text, a failure as one
 * line {@code ERROR <code>: <detail>}.
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
final class ReplyFormat {

    /** Code printed when the runtime service is not registered. */
    static final String RUNTIME_UNAVAILABLE = "runtime.unavailable";
    /** Code printed for a failure that carries no Troupe error code. */
    static final String INTERNAL = "internal";

    private ReplyFormat() {
    }

    /**
     * The text of a reply: {@code byte[]} decoded as UTF-8, a {@link String} as is, a
     * {@link Message} as its text content, a {@link Failure} as an error line, anything else by
     * {@code toString()}.
     */
    static String text(Object reply) {
        if (reply instanceof byte[] bytes) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
        if (reply instanceof String text) {
            return text;
        }
        if (reply instanceof Message message) {
            return message.text();
        }
        if (reply instanceof Failure failure) {
            return error(failure.code(), failure.detail());
        }
        return String.valueOf(reply);
    }

    /** {@code ERROR <code>: <detail>}. */
    static String error(String code, String detail) {
        return "ERROR " + code + ": " + detail;
    }

    /** The error line for a failed ask; wrappers such as {@link ExecutionException} are looked through. */
    static String error(Throwable failure, Duration timeout) {
        Throwable cause = unwrap(failure);
        if (cause instanceof TroupeException troupe) {
            return error(troupe.code(), troupe.detail());
        }
        if (cause instanceof TimeoutException) {
            return timeout(timeout);
        }
        return error(INTERNAL, String.valueOf(cause));
    }

    /** The error line for an ask that got no reply in time. */
    static String timeout(Duration timeout) {
        return error(ErrorCode.HANDLER_TIMEOUT, "no reply within " + timeout.toSeconds() + " s");
    }

    /** The error line printed when the runtime service is absent. */
    static String runtimeUnavailable() {
        return error(RUNTIME_UNAVAILABLE, "the Troupe runtime is not available (is bundle io.troupe.host active?)");
    }

    private static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof ExecutionException || cause instanceof CompletionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }
}
