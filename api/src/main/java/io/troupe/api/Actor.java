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

    /** How this actor supervises its children; read once per child failure. */
    default SupervisorStrategy supervisorStrategy() {
        return SupervisorStrategy.defaultStrategy();
    }
}
