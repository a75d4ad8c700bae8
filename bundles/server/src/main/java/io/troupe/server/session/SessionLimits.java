package io.troupe.server.session;

import java.time.Duration;
import java.util.Objects;

import io.troupe.protocol.FrameDecoder;

/**
 * The limits every session applies, as currently configured. Sessions read the current instance
 * whenever they need a value, so a change applies to live sessions: a new frame limit to the next
 * frame, a new idle timeout to the next idle check, a new request timeout to the next request. The
 * auth timeout applies to connections accepted after the change.
 *
 * <p><b>Threading:</b> immutable; any thread.
 *
 * @param maxFrameBytes  the largest {@code length} field accepted after WELCOME (before it:
 *                       {@value FrameDecoder#PRE_AUTH_MAX_FRAME_BYTES})
 * @param idleTimeout    a session that sends no frame for this long is closed; zero: never
 * @param authTimeout    a connection that has not sent HELLO this long after it opened is closed
 * @param requestTimeout how long a handler may take to answer a REQUEST
 */
public record SessionLimits(int maxFrameBytes, Duration idleTimeout, Duration authTimeout, Duration requestTimeout) {

    public SessionLimits {
        if (maxFrameBytes < FrameDecoder.MIN_LENGTH) {
            throw new IllegalArgumentException("maxFrameBytes must be at least " + FrameDecoder.MIN_LENGTH);
        }
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        Objects.requireNonNull(authTimeout, "authTimeout");
        Objects.requireNonNull(requestTimeout, "requestTimeout");
        if (idleTimeout.isNegative() || !isPositive(authTimeout) || !isPositive(requestTimeout)) {
            throw new IllegalArgumentException("timeouts must be positive (idle: or zero), got idle " + idleTimeout
                    + ", auth " + authTimeout + ", request " + requestTimeout);
        }
    }

    /** Whether idle sessions are closed at all. */
    public boolean closesIdleSessions() {
        return !idleTimeout.isZero();
    }

    private static boolean isPositive(Duration duration) {
        return !duration.isNegative() && !duration.isZero();
    }
}
