package io.troupe.host.actor;

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import io.troupe.api.ActorRef;

/**
 * Who waits for one actor's death: the cells that {@linkplain io.troupe.api.ActorContext#watch watch}
 * it and its {@link ActorRef#whenTerminated()} future. Created on first use, so that an actor nobody
 * watches carries none.
 *
 * <p>Exactly once: a watcher is notified by whoever removes it from the set, the dying cell
 * ({@link #terminated}) or the watcher itself when it registered after the death
 * ({@link #add} returns {@code false} then); a set removal succeeds once.
 *
 * <p><b>Threading:</b> every method from any thread; lock-free. {@link #terminated} runs once, on the
 * dying cell's last turn, after its lifecycle became terminated (a volatile write), so that a watcher
 * that adds itself and then sees the cell alive is found by it.
 */
final class Watchers {

    private final Set<ActorCell> cells = ConcurrentHashMap.newKeySet();
    private final CompletableFuture<Void> termination = new CompletableFuture<>();
    private final ActorCell target;

    Watchers(ActorCell target) {
        this.target = target;
    }

    /**
     * Registers {@code watcher}.
     *
     * @return {@code false} when the target had already terminated and the watcher must notify itself
     *         (it did not stay registered)
     */
    boolean add(ActorCell watcher) {
        cells.add(watcher);
        if (target.isTerminated()) {
            return !cells.remove(watcher); // the dying cell removed it first: it was notified
        }
        return true;
    }

    void remove(ActorCell watcher) {
        cells.remove(watcher);
    }

    /** Watchers registered now. */
    int size() {
        return cells.size();
    }

    CompletableFuture<Void> termination() {
        if (target.isTerminated()) {
            termination.complete(null);
        }
        return termination;
    }

    /** The target has terminated: notifies every watcher still registered, then completes the future. */
    void terminated() {
        for (ActorCell watcher : cells) {
            if (cells.remove(watcher)) {
                watcher.notifyTerminated(target.ref());
            }
        }
        termination.complete(null);
    }
}
