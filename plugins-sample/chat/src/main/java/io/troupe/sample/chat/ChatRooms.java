package io.troupe.sample.chat;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.troupe.api.ActorRef;

/**
 * The rooms of one tenant and their members, each member being the {@link ActorRef} of a client
 * connection. A room exists while it has members; the last one leaving removes it.
 *
 * <p>Members are kept in joining order, so that a broadcast reaches them in a predictable order.
 * Membership relies on {@code ActorRef}'s {@code equals} and {@code hashCode}, which are stable for
 * one session.
 *
 * <p><b>Threading:</b> not thread-safe; confined to its actor.
 */
final class ChatRooms {

    private final Map<RoomName, Set<ActorRef>> members = new LinkedHashMap<>();

    /** Adds {@code client} to {@code room}; returns whether it was not a member yet. */
    boolean join(RoomName room, ActorRef client) {
        return members.computeIfAbsent(room, name -> new LinkedHashSet<>()).add(client);
    }

    /** Removes {@code client} from {@code room}; returns whether it was a member. */
    boolean leave(RoomName room, ActorRef client) {
        Set<ActorRef> clients = members.get(room);
        if (clients == null || !clients.remove(client)) {
            return false;
        }
        if (clients.isEmpty()) {
            members.remove(room);
        }
        return true;
    }

    boolean isMember(RoomName room, ActorRef client) {
        Set<ActorRef> clients = members.get(room);
        return clients != null && clients.contains(client);
    }

    /** The members of {@code room}, in joining order; empty if the room does not exist. */
    List<ActorRef> members(RoomName room) {
        Set<ActorRef> clients = members.get(room);
        return clients == null ? List.of() : List.copyOf(clients);
    }

    /** The rooms that have members, in order of creation. */
    List<RoomName> rooms() {
        return List.copyOf(members.keySet());
    }

    /** Drops the members of {@code room} whose connection has closed; returns how many. */
    int dropStopped(RoomName room) {
        Set<ActorRef> clients = members.get(room);
        if (clients == null) {
            return 0;
        }
        int dropped = dropStopped(clients);
        if (clients.isEmpty()) {
            members.remove(room);
        }
        return dropped;
    }

    /** Drops the members of every room whose connection has closed; returns how many memberships ended. */
    int dropStopped() {
        int dropped = 0;
        for (Iterator<Set<ActorRef>> rooms = members.values().iterator(); rooms.hasNext(); ) {
            Set<ActorRef> clients = rooms.next();
            dropped += dropStopped(clients);
            if (clients.isEmpty()) {
                rooms.remove();
            }
        }
        return dropped;
    }

    private static int dropStopped(Set<ActorRef> clients) {
        int before = clients.size();
        clients.removeIf(ActorRef::isStopped);
        return before - clients.size();
    }
}
