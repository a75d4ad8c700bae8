package io.troupe.host.plugin;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;

import io.troupe.api.ActorRef;

/**
 * The actors a retired plugin service spawned, detached, while its swap was undecided (a new
 * tenant's handler actor, a new actor-pool member), which the swap may not have seen: each is handed
 * to the swap's decision (move it to the next revision, resume it on the old one, stop it) exactly
 * once, whether it arrives before the decision is made or after. An actor and the decision race
 * like this: the spawning thread records the actor, then reads the decision; the deciding thread
 * publishes the decision, then reads the recorded actors; removing the actor from the map picks the
 * one thread that hands it over.
 *
 * <p><b>Threading:</b> any thread; lock-free.
 */
final class LateActors {

    /** The waiting actors, each with its tenant when it is a tenant's handler actor, else "". */
    private final ConcurrentHashMap<ActorRef, String> waiting = new ConcurrentHashMap<>();
    private volatile BiConsumer<ActorRef, String> decision;

    /** A new swap begins: actors from now on wait for its decision. */
    void reset() {
        decision = null;
    }

    /** Records a detached actor; hands it over at once if the decision is already made. */
    void add(ActorRef actor, String tenant) {
        waiting.put(actor, tenant);
        BiConsumer<ActorRef, String> decided = decision;
        if (decided != null && waiting.remove(actor) != null) {
            decided.accept(actor, tenant);
        }
    }

    /**
     * The swap is decided: every actor recorded so far, except those it {@code handled} itself, and
     * every one recorded later, goes to {@code decided}.
     */
    void decide(BiConsumer<ActorRef, String> decided, Set<ActorRef> handled) {
        handled.forEach(waiting::remove);
        decision = decided;
        for (ActorRef actor : waiting.keySet()) {
            String tenant = waiting.remove(actor);
            if (tenant != null) {
                decided.accept(actor, tenant);
            }
        }
    }
}
