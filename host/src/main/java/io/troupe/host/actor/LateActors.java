package io.troupe.host.actor;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Predicate;

import io.troupe.api.ActorRef;

/**
 * The actors created from a revision's code while a hot swap of that revision is undecided, which
 * the swap's collection may have missed (a new tenant's handler actor, a new pool member, an actor
 * spawned by factory name through the old revision's service): they start detached and each is
 * handed to the swap's decision (start it on the next revision, start it on the old one, stop it)
 * exactly once, whether it arrives before the decision is made or after. An actor and the decision
 * race like this: the spawning thread records the actor, then reads the decision; the deciding thread
 * publishes the decision, then reads the recorded actors; removing the actor from the map picks the
 * one thread that hands it over. Actors the swap collected itself ({@code handled}) are skipped on
 * both sides.
 *
 * <p><b>Threading:</b> any thread; lock-free.
 */
final class LateActors {

    private final ConcurrentHashMap<ActorRef, DetachedActor> waiting = new ConcurrentHashMap<>();
    private volatile Consumer<DetachedActor> decision;
    private volatile Predicate<ActorRef> handled = actor -> false;

    /** Records a detached actor; hands it over at once if the decision is already made. */
    void add(DetachedActor actor) {
        waiting.put(actor.ref(), actor);
        Consumer<DetachedActor> decided = decision;
        if (decided != null && waiting.remove(actor.ref()) != null && !handled.test(actor.ref())) {
            decided.accept(actor);
        }
    }

    /**
     * The swap is decided: every actor recorded so far, and every one recorded later, goes to
     * {@code decided}, except those {@code handled} says the swap took care of itself.
     */
    void decide(Consumer<DetachedActor> decided, Predicate<ActorRef> handledBySwap) {
        handled = handledBySwap;
        decision = decided;
        for (ActorRef actor : waiting.keySet()) {
            DetachedActor late = waiting.remove(actor);
            if (late != null && !handledBySwap.test(actor)) {
                decided.accept(late);
            }
        }
    }
}
