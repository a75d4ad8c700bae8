package io.troupe.api;

/**
 * Delivered to a parent's {@code receive} after one of its children threw and the parent's
 * {@link SupervisorStrategy} has been applied.
 *
 * <p><b>Threading:</b> an immutable record, created by the runtime on the parent's turn and read
 * there; safe to pass to any thread or actor (the cause is shared, not copied: do not change it).
 *
 * @param child     the failing child
 * @param cause     what it threw
 * @param directive what was done about it
 */
public record ChildFailed(ActorRef child, Throwable cause, Directive directive) {
}
