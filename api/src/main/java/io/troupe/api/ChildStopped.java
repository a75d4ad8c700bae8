package io.troupe.api;

/**
 * Delivered to a parent's {@code receive} when one of its children has stopped for good. It arrives
 * after every message the child sent to the parent before stopping, and by then the child is no
 * longer among {@link ActorContext#children()}. A parent that restarts does not receive it for the
 * children of its previous instance.
 *
 * <p><b>Threading:</b> an immutable record, created by the runtime and read on the parent's turn;
 * safe to pass to any thread or actor (the cause is shared, not copied).
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
