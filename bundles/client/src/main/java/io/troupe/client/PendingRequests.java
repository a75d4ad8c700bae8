package io.troupe.client;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.troupe.protocol.FrameType;

/**
 * The frames waiting for an answer (REQUEST for REPLY or ERROR, PING for PONG), by corrId.
 *
 * <p>Every entry of one client gets the same timeout, and entries are added in time order, so
 * insertion order is deadline order: the oldest entry is the next to expire and
 * {@link #expire(long)} only looks at the head. Answered entries leave from anywhere in O(1).
 *
 * <p><b>Threading:</b> not thread-safe; confined to the client's loop thread.
 */
final class PendingRequests {

    /** One frame waiting for its answer. */
    static final class Pending {
        final long corrId;
        final FrameType type;
        final String name;
        final long deadline;
        final CompletableFuture<byte[]> answer;

        Pending(long corrId, FrameType type, String name, long deadline, CompletableFuture<byte[]> answer) {
            this.corrId = corrId;
            this.type = type;
            this.name = name;
            this.deadline = deadline;
            this.answer = answer;
        }

        /** The answer type this entry expects: PONG for a PING, REPLY for a REQUEST. */
        FrameType expectedAnswer() {
            return type == FrameType.PING ? FrameType.PONG : FrameType.REPLY;
        }

        @Override
        public String toString() {
            return type + (name.isEmpty() ? "" : " '" + name + "'") + " (corrId " + Long.toUnsignedString(corrId) + ")";
        }
    }

    private final LinkedHashMap<Long, Pending> byCorrId = new LinkedHashMap<>();

    /** Adds an entry whose deadline is not earlier than any other's. */
    void add(Pending pending) {
        byCorrId.put(pending.corrId, pending);
    }

    /** Removes and returns the entry for {@code corrId}, or null when none waits (answered, expired). */
    Pending remove(long corrId) {
        return byCorrId.remove(corrId);
    }

    int size() {
        return byCorrId.size();
    }

    boolean isEmpty() {
        return byCorrId.isEmpty();
    }

    /** The deadline of the oldest entry; only meaningful when not empty. */
    long firstDeadline() {
        return byCorrId.values().iterator().next().deadline;
    }

    /** Removes and returns the entries whose deadline is at or before {@code now}, oldest first. */
    List<Pending> expire(long now) {
        List<Pending> expired = new ArrayList<>();
        Iterator<Pending> entries = byCorrId.values().iterator();
        while (entries.hasNext()) {
            Pending next = entries.next();
            if (next.deadline - now > 0) {
                break;
            }
            entries.remove();
            expired.add(next);
        }
        return expired;
    }

    /** Removes and returns every entry. */
    List<Pending> removeAll() {
        List<Pending> all = new ArrayList<>(byCorrId.values());
        byCorrId.clear();
        return all;
    }
}
