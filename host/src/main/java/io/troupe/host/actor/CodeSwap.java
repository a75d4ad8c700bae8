package io.troupe.host.actor;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One hot swap of the code loaded by one class loader (a plugin bundle's revision): the actors taken
 * out of service for it, whichever way they were spawned. An actor takes part when the code it was
 * created from was loaded by {@link #code()}: see {@link FactorySource#codeLoader()}.
 *
 * <p>Built by {@link ActorSystem#detachAll}; the coordinator then {@linkplain ActorSystem#prepare
 * prepares} each actor on the next revision and {@linkplain ActorSystem#commit commits}, or, before
 * the old revision went away, {@linkplain ActorSystem#reattach reattaches} them to their old
 * instances.
 *
 * <p><b>Threading:</b> actors join from their own turns; the coordinator reads from its thread.
 */
public final class CodeSwap {

    private final ClassLoader code;
    private final ConcurrentHashMap<Long, DetachedActor> detached = new ConcurrentHashMap<>();

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

    /** Records an actor taken out of service; false if it had joined already. */
    boolean join(DetachedActor actor) {
        return detached.putIfAbsent(actor.ref().id(), actor) == null;
    }

    boolean hasJoined(long id) {
        return detached.containsKey(id);
    }

    /** The actors taken out of service so far, parents before children (ids grow with creation). */
    public List<DetachedActor> detached() {
        List<DetachedActor> actors = new ArrayList<>(detached.values());
        actors.sort(Comparator.comparingLong(actor -> actor.ref().id()));
        return actors;
    }
}
