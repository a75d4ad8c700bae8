package io.troupe.api;

/**
 * Delivered to a parent's {@code receive} when one of its children has stopped for good.
 *
 * @param child  the child that stopped
 * @param reason why: {@code stopped} for a normal stop, otherwise a short explanation
 * @param cause  the failure that stopped it, or {@code null} for a normal stop
 */
public record ChildStopped(ActorRef child, String reason, Throwable cause) {

    /** Whether the child stopped because of a failure (or because its code went away). */
    public boolean failed() {
        return cause != null;
    }
}
