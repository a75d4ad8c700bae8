package io.troupe.client;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.troupe.protocol.FrameType;

/**
 * The frames waiting for an answer (REQUEST for REPLY or ERROR, PING for PONG), by corrId, and the frames
 * held for the next session.
 *
 * <p>Every entry of one client gets the same timeout, and entries are added in time order, so
 * insertion order is deadline order: the oldest entry is the next to expire and
 * {@link #expire(long)} only looks at the head. Answered entries leave from anywhere in O(1).
 *
 * <p>An entry is <em>on the wire</em> while a copy of it sits in a connection ({@link Pending#wire}), and
 * <em>held</em> otherwise: made while the client had no session, or left unanswered by a session that
 * ended in a way that allows sending it again ({@link #holdAllForRedirect}, {@link #holdRetriable}).
 * {@link #takeHeld} puts the held ones back on the wire, with the held SENDs, in corrId order.
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
        /** The frame as the caller made it, to send again; null for a keep-alive PING, never sent again. */
        final OutboundFrame request;
        /** Sending it twice does no harm: a PING, or a REQUEST whose name the application said is idempotent. */
        final boolean idempotent;
        /** The copy in a connection's output queue; null while held. */
        OutboundFrame wire;

        Pending(long corrId, FrameType type, String name, long deadline, CompletableFuture<byte[]> answer,
                OutboundFrame request, boolean idempotent) {
            this.corrId = corrId;
            this.type = type;
            this.name = name;
            this.deadline = deadline;
            this.answer = answer;
            this.request = request;
            this.idempotent = idempotent;
        }

        /** The answer type this entry expects: PONG for a PING, REPLY for a REQUEST. */
        FrameType expectedAnswer() {
            return type == FrameType.PING ? FrameType.PONG : FrameType.REPLY;
        }

        /** Whether the server may have read it: a copy went wholly into a socket. */
        boolean mayHaveArrived() {
            return wire != null && wire.isWritten();
        }

        @Override
        public String toString() {
            return type + (name.isEmpty() ? "" : " '" + name + "'") + " (corrId " + Long.toUnsignedString(corrId) + ")";
        }
    }

    private static final Comparator<OutboundFrame> CORR_ID_ORDER =
            (a, b) -> Long.compareUnsigned(a.corrId, b.corrId);

    private final LinkedHashMap<Long, Pending> byCorrId = new LinkedHashMap<>();
    private final ArrayDeque<OutboundFrame> heldSends = new ArrayDeque<>();

    /** Adds an entry whose deadline is not earlier than any other's. */
    void add(Pending pending) {
        byCorrId.put(pending.corrId, pending);
    }

    /** Holds a SEND made while there is no session, for the next one. */
    void holdSend(OutboundFrame send) {
        heldSends.add(send);
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

    /** Removes and returns every entry (the held SENDs stay: {@link #removeHeldSends()}). */
    List<Pending> removeAll() {
        List<Pending> all = new ArrayList<>(byCorrId.values());
        byCorrId.clear();
        return all;
    }

    /** Removes and returns the held SENDs. */
    List<OutboundFrame> removeHeldSends() {
        List<OutboundFrame> sends = new ArrayList<>(heldSends);
        heldSends.clear();
        return sends;
    }

    /**
     * The session ended with a redirecting BYE, before which the server answered every request it had read:
     * every unanswered entry is held. Keep-alive PINGs, which nobody waits for, are removed and returned.
     */
    List<Pending> holdAllForRedirect() {
        List<Pending> dropped = new ArrayList<>();
        Iterator<Pending> entries = byCorrId.values().iterator();
        while (entries.hasNext()) {
            Pending next = entries.next();
            if (next.request == null) {
                entries.remove();
                dropped.add(next);
            } else {
                next.wire = null;
            }
        }
        return dropped;
    }

    /**
     * The connection was lost with no word from the server: an entry that may have reached it and is not
     * idempotent has an unknown outcome, and is removed and returned, as are keep-alive PINGs; every other
     * entry (idempotent, or never wholly written) is held.
     */
    List<Pending> holdRetriable() {
        List<Pending> dropped = new ArrayList<>();
        Iterator<Pending> entries = byCorrId.values().iterator();
        while (entries.hasNext()) {
            Pending next = entries.next();
            if (next.request == null || (next.mayHaveArrived() && !next.idempotent)) {
                entries.remove();
                dropped.add(next);
            } else {
                next.wire = null;
            }
        }
        return dropped;
    }

    /**
     * The frames to send first on a new session: the held entries (now on the wire, as the wire copies
     * returned) and the held SENDs, in corrId order, which is the order of the calls from each thread.
     */
    List<OutboundFrame> takeHeld() {
        List<OutboundFrame> frames = new ArrayList<>(heldSends);
        heldSends.clear();
        for (Pending next : byCorrId.values()) {
            if (next.wire == null && next.request != null) {
                next.wire = next.request.wireCopy();
                frames.add(next.wire);
            }
        }
        frames.sort(CORR_ID_ORDER);
        return frames;
    }
}
