package io.troupe.host.actor;

import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Set;

import io.troupe.api.ActorRef;
import io.troupe.api.Receive;
import io.troupe.host.mailbox.Envelope;

/**
 * What an actor opted into beyond its instance: the behaviour it
 * {@linkplain io.troupe.api.ActorContext#become became}, the messages it stashed, those it unstashed
 * and has not taken yet (they come before the mailbox), the actors it watches, and the bond of a
 * {@link io.troupe.api.state.Durable} instance with the state store. Created on first use, so an actor
 * that uses none of it carries none (one reference in the cell for all of them).
 *
 * <p><b>Threading:</b> confined to the cell's turns.
 */
final class CellBehaviour {

    /** The behaviour receiving messages instead of the instance's {@code receive}; null for {@code receive}. */
    Receive current;
    /** The durable instance's bond with the store; null when the instance is not durable (or has no store). */
    CellDurability durable;
    private ArrayDeque<Envelope> stash;
    private ArrayDeque<Envelope> unstashed;
    private Set<ActorRef> watching;

    void stash(Envelope envelope) {
        if (stash == null) {
            stash = new ArrayDeque<>();
        }
        stash.addLast(envelope);
    }

    /** Moves every stashed message in front of those unstashed before, keeping stash order. */
    void unstashAll() {
        if (stash == null || stash.isEmpty()) {
            return;
        }
        if (unstashed == null || unstashed.isEmpty()) {
            unstashed = stash;
        } else {
            ArrayDeque<Envelope> merged = stash;
            merged.addAll(unstashed);
            unstashed = merged;
        }
        stash = null;
    }

    /** The next unstashed message, taken before the mailbox; null when none. */
    Envelope pollUnstashed() {
        return unstashed == null ? null : unstashed.pollFirst();
    }

    boolean hasUnstashed() {
        return unstashed != null && !unstashed.isEmpty();
    }

    /** Everything stashed or unstashed and not yet taken, removed: for dead letters when the actor stops. */
    ArrayDeque<Envelope> takeAllHeld() {
        ArrayDeque<Envelope> held = new ArrayDeque<>();
        if (unstashed != null) {
            held.addAll(unstashed);
        }
        if (stash != null) {
            held.addAll(stash);
        }
        unstashed = null;
        stash = null;
        return held;
    }

    int held() {
        return (stash == null ? 0 : stash.size()) + (unstashed == null ? 0 : unstashed.size());
    }

    /** @return whether {@code target} was not watched yet */
    boolean watch(ActorRef target) {
        if (watching == null) {
            watching = new HashSet<>();
        }
        return watching.add(target);
    }

    /** @return whether {@code target} was watched */
    boolean unwatch(ActorRef target) {
        return watching != null && watching.remove(target);
    }

    /** The watched actors, removed: the actor stops watching them all. */
    Set<ActorRef> takeWatched() {
        Set<ActorRef> all = watching == null ? Set.of() : watching;
        watching = null;
        return all;
    }
}
