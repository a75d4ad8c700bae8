package io.troupe.host.actor;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

import io.troupe.api.ActorRef;

/**
 * One hot swap of the code loaded by one class loader (a plugin bundle's revision): the actors taken
 * out of service for it, whichever way they were spawned. An actor takes part when the code it was
 * created from was loaded by {@link #code()} (see {@link FactorySource#codeLoader()}), or when the
 * coordinator named it ({@link #include}).
 *
 * <p>While the swap is open (from {@link ActorSystem#detachAll} to {@link ActorSystem#closeSwap}),
 * an actor created from its code starts detached and waits among the {@linkplain LateActors late
 * actors} for the decision ({@link #decideLate}). Once {@linkplain #close closed} (refused), no actor
 * joins any more: one that answers the detach late keeps running.
 *
 * <p><b>Threading:</b> actors join from their own turns; the coordinator reads and decides from its
 * thread; late actors are recorded by whichever thread spawns them.
 */
public final class CodeSwap {

    private final ClassLoader code;
    private final ConcurrentHashMap<Long, DetachedActor> detached = new ConcurrentHashMap<>();
    private final Set<Long> included = ConcurrentHashMap.newKeySet();
    private final LateActors late = new LateActors();
    private volatile boolean closed;

    public CodeSwap(ClassLoader code) {
        this.code = code;
    }

    /** The class loader of the revision being replaced. */
    public ClassLoader code() {
        return code;
    }

    /** Whether code from {@code source} belongs to the revision being replaced. */
    boolean owns(FactorySource source) {
        return source.codeLoader() == code;
    }

    /** Makes these actors take part whatever their code (the services' own actors). */
    void include(Collection<ActorRef> actors) {
        actors.forEach(actor -> included.add(actor.id()));
    }

    boolean takesPart(long id, FactorySource source) {
        return included.contains(id) || owns(source);
    }

    /**
     * Records an actor taken out of service; false if it had joined already or the swap is closed
     * (then the caller must leave the actor as it is).
     */
    boolean tryJoin(DetachedActor actor) {
        if (detached.putIfAbsent(actor.ref().id(), actor) != null) {
            return false;
        }
        if (closed) {
            detached.remove(actor.ref().id());
            return false;
        }
        return true;
    }

    boolean hasJoined(long id) {
        return detached.containsKey(id);
    }

    /**
     * Refuses every later join: from now on {@link #detached()} is final, except for actors whose
     * join raced this call (they see the flag and withdraw, or are listed).
     */
    public void close() {
        closed = true;
    }

    /** An actor created from the swapped code while the swap is open; see {@link LateActors}. */
    void addLate(DetachedActor actor) {
        late.add(actor);
    }

    /**
     * The swap is decided: the late actors it did not collect itself, now and from now on, go to
     * {@code decided}.
     */
    public void decideLate(Consumer<DetachedActor> decided) {
        late.decide(decided, actor -> detached.containsKey(actor.id()));
    }

    /** The actors taken out of service so far, parents before children (ids grow with creation). */
    public List<DetachedActor> detached() {
        List<DetachedActor> actors = new ArrayList<>(detached.values());
        actors.sort(Comparator.comparingLong(actor -> actor.ref().id()));
        return actors;
    }
}
