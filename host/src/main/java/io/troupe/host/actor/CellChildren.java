package io.troupe.host.actor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.troupe.api.ActorRef;

/**
 * The live children of one cell, in spawn order, keyed by id. A child is listed from its spawn (or
 * adoption) until its parent processes its {@code ChildTerminated}.
 *
 * <p><b>Threading:</b> confined to the parent cell's turns.
 */
final class CellChildren {

    /** Created on the first child: most actors never spawn one. */
    private Map<Long, ActorCell> cells;

    void add(ActorCell child) {
        if (cells == null) {
            cells = new LinkedHashMap<>();
        }
        cells.put(child.id(), child);
    }

    /** Whether {@code child} is listed, and not a stale cell that happens to share its id. */
    boolean isCurrent(ActorCell child) {
        return cells != null && cells.get(child.id()) == child;
    }

    /** Removes {@code child}; returns whether it was listed. */
    boolean remove(ActorCell child) {
        return cells != null && cells.remove(child.id()) != null;
    }

    boolean isEmpty() {
        return cells == null || cells.isEmpty();
    }

    /** Sends {@code message} to every child; returns whether there was any. */
    boolean tellAll(SystemMessage message) {
        if (isEmpty()) {
            return false;
        }
        for (ActorCell child : cells.values()) {
            child.sendSystem(message);
        }
        return true;
    }

    List<ActorRef> refs() {
        if (isEmpty()) {
            return List.of();
        }
        List<ActorRef> refs = new ArrayList<>(cells.size());
        cells.values().forEach(child -> refs.add(child.ref()));
        return refs;
    }
}
