package io.troupe.api;

/**
 * Delivered to a parent's {@code receive} after one of its children threw and the parent's
 * {@link SupervisorStrategy} has been applied.
 *
 * @param child     the failing child
 * @param cause     what it threw
 * @param directive what was done about it
 */
public record ChildFailed(ActorRef child, Throwable cause, Directive directive) {
}
