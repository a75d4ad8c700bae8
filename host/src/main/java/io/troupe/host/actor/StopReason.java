package io.troupe.host.actor;

import io.troupe.api.ErrorCode;

/**
 * Why an actor stopped: told to its parent, to the senders of requests still queued (as a failure
 * with {@link #code()}), and to dead letters.
 *
 * @param text  a short explanation, e.g. {@code stopped}
 * @param code  the error code that queued requests fail with
 * @param cause the failure behind it, or {@code null} for a normal stop
 */
public record StopReason(String text, String code, Throwable cause) {

    /** A normal stop requested by the actor, its parent or the runtime's user. */
    public static final StopReason NORMAL = new StopReason("stopped", ErrorCode.ACTOR_STOPPED, null);

    /** The runtime is shutting down. */
    public static final StopReason SHUTDOWN =
            new StopReason("runtime shutting down", ErrorCode.SERVER_SHUTDOWN, null);
}
