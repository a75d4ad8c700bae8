package io.troupe.host.actor;

/**
 * Messages the runtime sends to an actor cell about its lifecycle. They travel in a separate,
 * unbounded queue and are processed before ordinary messages, so that a full mailbox never delays a
 * stop or a supervision decision.
 *
 * <p><b>Threading:</b> immutable records, created on any thread, processed on the target's turn.
 */
sealed interface SystemMessage {

    /** Instantiate the actor and run {@code preStart}. */
    enum Create implements SystemMessage { INSTANCE }

    /** Resume after a failure, keeping the instance. */
    enum Resume implements SystemMessage { INSTANCE }

    /** Stop, children first. */
    record Stop(StopReason reason) implements SystemMessage { }

    /** Replace the failed instance by a fresh one, children stopped first. */
    record Restart(Throwable cause, Object message) implements SystemMessage { }

    /** To the parent: {@code child} failed and waits for a decision. */
    record Failed(ActorCell child, Throwable cause, Object message) implements SystemMessage { }

    /** To the parent: {@code child} has terminated. */
    record ChildTerminated(ActorCell child, StopReason reason) implements SystemMessage { }

    /** To the guardian: adopt a top-level actor spawned from outside the runtime. */
    record Adopt(ActorCell child) implements SystemMessage { }

    /**
     * Hot swap: if the actor's code belongs to the swapped revision, export the state, stop taking
     * turns (the mailbox keeps filling) and pass the swap on to the children.
     */
    record Detach(CodeSwap swap, SwapBarrier barrier) implements SystemMessage { }

    /**
     * Hot swap {@code swap} refused before the old revision went away: the old instance resumes
     * (ignored by a cell that has joined another swap since).
     */
    record Reattach(CodeSwap swap) implements SystemMessage { }

    /**
     * Hot swap {@code swap} decided: a cell created from the swapped code meanwhile starts on
     * {@code source} (ignored by a cell that has joined another swap since).
     */
    record StartOn(FactorySource source, CodeSwap swap) implements SystemMessage { }

    /**
     * Hot swap: create an instance of the next revision and import the state (or, for an actor that
     * never started, run {@code preStart}); wait for the commit.
     */
    record Prepare(FactorySource source, SwapBarrier barrier) implements SystemMessage { }

    /** Hot swap: every actor of the plugin is prepared; process messages again. */
    enum Commit implements SystemMessage { INSTANCE }

    /** Hot swap: some actor failed to prepare; drop the new instance and wait for another revision. */
    enum Abort implements SystemMessage { INSTANCE }
}
