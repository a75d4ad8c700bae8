package io.troupe.host.actor;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * The stage {@link io.troupe.api.ActorContext#ask(io.troupe.api.ActorRef, Object, java.time.Duration)}
 * returns: it is completed on the asking actor's turn, so the callbacks attached to it run there;
 * derived stages are {@code TurnStage}s too, and their {@code …Async} callbacks go to the actor's
 * turn as well ({@link #defaultExecutor()}).
 *
 * <p><b>Threading:</b> completed only on the owner's turn (by a {@link TurnTask}); callbacks may be
 * attached from any thread, and those attached from elsewhere after completion run on the attaching
 * thread, as with any {@code CompletableFuture}: attach them on the turn.
 */
final class TurnStage<T> extends CompletableFuture<T> {

    private final ActorCell owner;
    private final int incarnation;

    TurnStage(ActorCell owner, int incarnation) {
        this.owner = owner;
        this.incarnation = incarnation;
    }

    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
        return new TurnStage<>(owner, incarnation);
    }

    /** Runs {@code …Async} callbacks on the owner's turn, never on a pool of their own. */
    @Override
    public Executor defaultExecutor() {
        return work -> owner.runOnTurn(work, incarnation, null);
    }
}
