package io.troupe.host.actor;

import io.troupe.api.ActorRef;

/**
 * Work to run on an actor's own turn rather than a message for {@code receive}: the completion of an
 * ask the actor made from its context ({@link TurnStage}). Queued like a message, past the capacity
 * (the actor asked for it), and dropped silently when the actor restarted or stopped before it.
 *
 * <p><b>Threading:</b> immutable; {@link #work} runs on the actor's turn.
 *
 * @param work        what to run
 * @param incarnation the actor's incarnation when the work was arranged: a restarted actor skips it;
 *                    {@link #ANY_INCARNATION} for work that runs on whichever instance is there
 * @param sender      the sender the context shows while the work runs (the actor asked)
 */
record TurnTask(Runnable work, int incarnation, ActorRef sender) {

    /** Runs whatever the actor's incarnation (a store's refusal that concerns every instance since a write). */
    static final int ANY_INCARNATION = -1;
}
