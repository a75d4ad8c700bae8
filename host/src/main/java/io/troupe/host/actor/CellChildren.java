package io.troupe.host.actor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.troupe.api.ActorRef;

/**
 * The live children of one cell, in spawn order. A child is listed from its spawn (or adoption) until
 * its parent processes its {@code ChildTerminated}. Cells are kept by identity (a cell does not
 * override {@code equals}), so no boxed id is stored per child; beside each child, its restart
 * history, created by its first restart decision.
 *
 * <p><b>Threading:</b> confined to the parent cell's turns.
 */
final class CellChildren {

    /** Created on the first child: most actors never spawn one. */
    private Map<ActorCell, RestartHistory> cells;

    void add(ActorCell child) {
        if (cells == null) {
            cells = new LinkedHashMap<>();
        }
        cells.put(child, null);
    }

    /** Whether {@code child} itself is listed. */
    boolean isCurrent(ActorCell child) {
        return cells != null && cells.containsKey(child);
    }

    /** The restart history of {@code child}, a listed child. */
    RestartHistory restartsOf(ActorCell child) {
        return cells.computeIfAbsent(child, listed -> new RestartHistory());
    }

    /** Removes {@code child}; returns whether it was listed. */
    boolean remove(ActorCell child) {
        if (cells == null || !cells.containsKey(child)) {
            return false;
        }
        cells.remove(child);
        return true;
    }

    int size() {
        return cells == null ? 0 : cells.size();
    }

    boolean isEmpty() {
        return cells == null || cells.isEmpty();
    }

    /** Sends {@code message} to every child; returns whether there was any. */
    boolean tellAll(SystemMessage message) {
        if (isEmpty()) {
            return false;
        }
        for (ActorCell child : cells.keySet()) {
            child.sendSystem(message);
        }
        return true;
    }

    List<ActorRef> refs() {
        if (isEmpty()) {
            return List.of();
        }
        List<ActorRef> refs = new ArrayList<>(cells.size());
        cells.keySet().forEach(child -> refs.add(child.ref()));
        return refs;
    }
}
