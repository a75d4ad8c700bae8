package io.troupe.api;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * Business logic that receives messages one at a time.
 *
 * <p><b>Threading:</b> the runtime never calls an actor concurrently with itself: every method here
 * runs on some worker thread, one call at a time, and each call happens-after the previous one, so an
 * actor's fields need no synchronisation. Calls may move between worker threads. An actor must not
 * block for long inside these methods: it holds a worker for the whole call.
 *
 * <p><b>Lifecycle:</b> {@link #preStart} runs before the first message; when {@code receive} throws,
 * the parent's {@link SupervisorStrategy} decides what happens (see {@link Directive}); on restart
 * the failing instance gets {@link #preRestart} and is replaced by a fresh one from the same factory,
 * whose {@code preStart} then runs; {@link #postStop} runs once, after all children have stopped.
 */
@ConsumerType
public interface Actor {

    /**
     * Handles one message. {@code ctx.sender()} is the sender of this message for the duration of the
     * call.
     *
     * @throws Exception to report a failure to the parent's supervisor strategy; the message goes to
     *                   dead letters with this cause
     */
    void receive(ActorContext ctx, Object message) throws Exception;

    /** Called once before the first message (and on the fresh instance after a restart). */
    default void preStart(ActorContext ctx) throws Exception {
    }

    /** Called once when the actor has stopped, after its children stopped; no message follows. */
    default void postStop(ActorContext ctx) {
    }

    /**
     * Called on the failing instance before it is replaced. Its children have already been stopped.
     *
     * @param message the message whose processing failed, or {@code null} if {@code preStart} failed
     */
    default void preRestart(ActorContext ctx, Throwable cause, Object message) {
    }

    /**
     * Hot swap, step 1: called on this instance when its plugin is being replaced by a new revision,
     * before the old revision goes away. Return the state the new instance needs, made only of JDK
     * types ({@code String}, boxed numbers, {@code byte[]}, lists, maps, sets) and API types, never of
     * the plugin's own classes, or {@code null} for none. The mailbox keeps accepting messages; they
     * are processed by the new instance, in order.
     */
    default Object exportState(ActorContext ctx) throws Exception {
        return null;
    }

    /**
     * Hot swap, step 2: called on the new instance, after {@link #preStart}, with what the previous
     * revision's instance returned from {@link #exportState} (possibly written by an older or newer
     * version of the plugin: check what you receive); not called when that was {@code null}. Throwing
     * rolls the whole plugin back to the previous revision, whose instances resume with their state.
     */
    default void importState(ActorContext ctx, Object state) throws Exception {
    }

    /** How this actor supervises its children; read once per child failure. */
    default SupervisorStrategy supervisorStrategy() {
        return SupervisorStrategy.defaultStrategy();
    }
}
