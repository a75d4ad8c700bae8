package io.troupe.api;

/**
 * Error codes that the runtime and handlers use in {@link Failure}s and {@link TroupeException}s.
 * The network server sends the same strings in its ERROR frames.
 *
 * <p><b>Threading:</b> constants only; any thread.
 */
public final class ErrorCode {

    /** No handler serves this message name (in this tenant). */
    public static final String NO_HANDLER = "no.handler";
    /** No bundle registers a factory under this name. */
    public static final String NO_FACTORY = "no.factory";
    /** The handler threw while processing the request. */
    public static final String HANDLER_FAILED = "handler.failed";
    /** No reply came within the allowed time. */
    public static final String HANDLER_TIMEOUT = "handler.timeout";
    /** The receiver's mailbox was full. */
    public static final String MAILBOX_FULL = "mailbox.full";
    /** A handler rejects its own input. */
    public static final String BAD_REQUEST = "bad.request";
    /** The receiving actor stopped before it processed the message. */
    public static final String ACTOR_STOPPED = "actor.stopped";
    /** The runtime is shutting down and will not run this request. */
    public static final String SERVER_SHUTDOWN = "server.shutdown";
    /** The tenant has as many live actors as its {@link TenantPolicy#maxActors()} allows (since 1.3). */
    public static final String TENANT_LIMIT_ACTORS = "tenant.limit.actors";
    /**
     * The durable actor's state could not be made durable (the state store failed, or the state cannot
     * be stored): the request's effects were withdrawn and the actor restarts from its last stored state
     * (since 1.4).
     */
    public static final String STATE_UNAVAILABLE = "state.unavailable";

    private ErrorCode() {
    }
}
