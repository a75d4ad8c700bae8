package io.troupe.api;

/**
 * What a supervisor decides when a child's {@code receive} (or {@code preStart}) throws.
 *
 * <p><b>Threading:</b> an enum: immutable, any thread.
 */
public enum Directive {
    /** Keep the instance and its state; continue with the next message. */
    RESUME,
    /** Stop the children, replace the instance by a fresh one from the same factory, keep the mailbox. */
    RESTART,
    /** Stop the child (children first). */
    STOP,
    /** Fail the supervisor itself with the same cause, so that its own parent decides. */
    ESCALATE
}
