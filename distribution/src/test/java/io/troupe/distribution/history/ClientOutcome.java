package io.troupe.distribution.history;

import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;

import io.troupe.client.ConnectionLostException;
import io.troupe.client.TroupeClientException;

/**
 * What a request that did not get its reply means for the history: whether it certainly did not take effect
 * ({@link Event.Type#FAIL}) or nobody can know ({@link Event.Type#INFO}), by the client library's contract.
 * <ul>
 * <li>an ERROR from the server: FAIL, the request was refused or withdrawn (a durable actor's
 *     {@code state.unavailable} restarts it from its stored state), except {@code handler.timeout}, sent while
 *     the handler may still run it: INFO;</li>
 * <li>{@link ConnectionLostException} "not connected": FAIL, it was never sent; any other loss ("outcome
 *     unknown"): INFO;</li>
 * <li>the client's request timeout, or anything else: INFO.</li>
 * </ul>
 *
 * <p><b>Threading:</b> immutable.
 *
 * @param type   {@link Event.Type#FAIL} or {@link Event.Type#INFO}
 * @param reason the error, for the history
 */
public record ClientOutcome(Event.Type type, String reason) {

    /** The code of the server's ERROR sent while the handler may still run the request. */
    static final String HANDLER_TIMEOUT = "handler.timeout";

    /** How a request that failed with {@code error} ended. */
    public static ClientOutcome of(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (cause instanceof TroupeClientException refused) {
            String reason = "ERROR " + refused.code() + ": " + refused.detail();
            return new ClientOutcome(HANDLER_TIMEOUT.equals(refused.code()) ? Event.Type.INFO : Event.Type.FAIL,
                    reason);
        }
        if (cause instanceof ConnectionLostException lost && lost.getMessage() != null
                && lost.getMessage().startsWith("not connected")) {
            return new ClientOutcome(Event.Type.FAIL, lost.getMessage());
        }
        if (cause instanceof TimeoutException) {
            return new ClientOutcome(Event.Type.INFO, "no reply within the request timeout");
        }
        return new ClientOutcome(Event.Type.INFO, String.valueOf(cause));
    }

    /** Records this outcome of {@code op} in {@code history}. */
    public void record(History history, long op) {
        if (type == Event.Type.FAIL) {
            history.fail(op, reason);
        } else {
            history.info(op, reason);
        }
    }
}
