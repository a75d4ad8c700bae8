package io.troupe.server.session;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

import io.troupe.api.Failure;
import io.troupe.api.Message;
import io.troupe.api.TroupeException;
import io.troupe.protocol.ErrorCode;
import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameType;

/**
 * Turns what a handler answered into the frame the client gets.
 *
 * <table>
 * <caption>Mapping</caption>
 * <tr><th>the ask completed with</th><th>frame</th></tr>
 * <tr><td>{@code byte[]}</td><td>REPLY with those bytes</td></tr>
 * <tr><td>{@code String}</td><td>REPLY with its UTF-8</td></tr>
 * <tr><td>{@link Message}</td><td>REPLY with its content</td></tr>
 * <tr><td>{@link Failure}, or a {@link TroupeException} (a Failure reply, or the runtime's own
 *     failure: {@code no.handler}, {@code mailbox.full}, {@code handler.failed}, ...)</td>
 *     <td>ERROR with its code and detail; a code that is malformed, or one that would tell the
 *     client its connection closes ({@code auth.failed}, ...), becomes {@code handler.failed}</td></tr>
 * <tr><td>{@link TimeoutException}</td><td>ERROR {@code handler.timeout}</td></tr>
 * <tr><td>anything else (another type, {@code null}, another exception)</td>
 *     <td>ERROR {@code handler.failed} naming it</td></tr>
 * </table>
 * The REPLY carries the request's name and corrId, the ERROR the request's corrId.
 *
 * <p><b>Threading:</b> stateless; any thread (answers are encoded on the runtime thread that
 * completed the ask).
 */
public final class Replies {

    /** Error details are for people; longer ones are cut here. */
    static final int MAX_DETAIL_CHARS = 8192;

    private static final Pattern CODE = Pattern.compile("[a-z][a-z0-9_]*(\\.[a-z0-9_]+)+");
    private static final int MAX_CODE_CHARS = 64;

    private Replies() {
    }

    /** The frame answering the request {@code corrId}/{@code name} whose ask completed with {@code reply}. */
    public static Frame reply(long corrId, String name, Object reply) {
        if (reply instanceof byte[] bytes) {
            return Frame.reply(corrId, name, bytes);
        }
        if (reply instanceof String text) {
            return Frame.reply(corrId, name, text.getBytes(UTF_8));
        }
        if (reply instanceof Message message) {
            return Frame.reply(corrId, name, message.content());
        }
        if (reply instanceof Failure failure) {
            return failure(corrId, failure.code(), failure.detail());
        }
        String what = reply == null ? "null" : "a " + reply.getClass().getName();
        return error(corrId, ErrorCode.HANDLER_FAILED, "handler '" + name + "' replied with " + what
                + "; a reply must be a byte[], a String or a Message");
    }

    /** The frame answering the request {@code corrId}/{@code name} whose ask failed with {@code failure}. */
    public static Frame failure(long corrId, String name, Throwable failure, Duration timeout) {
        Throwable cause = unwrap(failure);
        if (cause instanceof TimeoutException) {
            return timeout(corrId, name, timeout);
        }
        if (cause instanceof TroupeException troupe) {
            return failure(corrId, troupe.code(), troupe.detail());
        }
        return error(corrId, ErrorCode.HANDLER_FAILED, "request '" + name + "' failed: " + cause);
    }

    /** The ERROR {@code handler.timeout} for the request {@code corrId}/{@code name}, unanswered after {@code timeout}. */
    public static Frame timeout(long corrId, String name, Duration timeout) {
        return error(corrId, ErrorCode.HANDLER_TIMEOUT, "no reply from handler '" + name + "' within "
                + describe(timeout));
    }

    /**
     * The ERROR {@code tenant.limit.actors} for the request {@code corrId} whose handler could not be
     * created: the tenant has as many actors as its {@code maxActors} allows.
     */
    public static Frame tenantLimitActors(long corrId, String name, String tenant, String detail) {
        return error(corrId, ErrorCode.TENANT_LIMIT_ACTORS,
                "tenant '" + tenant + "' is at its maxActors limit; '" + name + "' was not run: " + detail);
    }

    /** BYE whose content says why the server ends the session, in UTF-8 (for example "tenant removed"). */
    public static Frame bye(String reason) {
        return new Frame(FrameType.BYE, 0L, "", shorten(reason).getBytes(UTF_8));
    }

    /** An ERROR frame with a protocol code. */
    public static Frame error(long corrId, ErrorCode code, String detail) {
        return Frame.error(corrId, code, shorten(detail));
    }

    /** An ERROR frame for a failure code reported by a handler or the runtime. */
    static Frame failure(long corrId, String code, String detail) {
        Optional<ErrorCode> known = ErrorCode.fromCode(code);
        if (known.isPresent() && !known.get().closesConnection()) {
            return error(corrId, known.get(), detail);
        }
        if (known.isEmpty() && code.length() <= MAX_CODE_CHARS && CODE.matcher(code).matches()) {
            return new Frame(FrameType.ERROR, corrId, code, shorten(detail).getBytes(UTF_8));
        }
        return error(corrId, ErrorCode.HANDLER_FAILED, "the handler failed with code '" + code + "': " + detail);
    }

    private static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    private static String describe(Duration timeout) {
        return timeout.toMillis() % 1000 == 0 ? timeout.toSeconds() + " s" : timeout.toMillis() + " ms";
    }

    private static String shorten(String detail) {
        return detail.length() <= MAX_DETAIL_CHARS ? detail : detail.substring(0, MAX_DETAIL_CHARS) + "...";
    }
}
