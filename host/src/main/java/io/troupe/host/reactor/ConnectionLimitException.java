package io.troupe.host.reactor;

import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * Why the reactor closed a connection that broke one of its {@link io.troupe.api.net.ConnectionOptions}
 * limits; passed to {@link io.troupe.api.net.ConnectionHandler#onClosed} as the cause.
 *
 * <p><b>Threading:</b> immutable.
 */
public final class ConnectionLimitException extends IOException {

    private static final long serialVersionUID = 1L;

    /** The limit that was broken. */
    public enum Limit {
        /** More output pending than {@code maxPendingOutput}: the peer does not read fast enough. */
        MAX_PENDING_OUTPUT,
        /** More unconsumed input than {@code maxInputBuffer}: the handler does not consume. */
        MAX_INPUT_BUFFER
    }

    private final Limit limit;

    private ConnectionLimitException(Limit limit, String message) {
        super(message);
        this.limit = limit;
    }

    static ConnectionLimitException slowConsumer(long id, InetSocketAddress remote, long pending, long max) {
        return new ConnectionLimitException(Limit.MAX_PENDING_OUTPUT, "Connection #" + id + " to " + remote
                + " is a slow consumer: " + pending + " bytes of output pending, more than the " + max
                + " allowed");
    }

    static ConnectionLimitException inputOverflow(long id, InetSocketAddress remote, int max) {
        return new ConnectionLimitException(Limit.MAX_INPUT_BUFFER, "Connection #" + id + " from " + remote
                + " buffered " + max + " bytes of input its handler did not consume");
    }

    public Limit limit() {
        return limit;
    }
}
