package io.troupe.host.reactor;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * The connections of one event loop that are ready to read, by fairness group (the server's tenant),
 * read one slice each (one buffer's worth, decoded and handed on), the groups in turn and each group's
 * connections in turn:
 *
 * <pre>
 *   select ─► ready(c) per readable key ─► lane of c's group ─► serve():
 *             lanes: [acme: c1 c2 c3 …]  [globex: c9]            acme c1, globex c9, acme c2, acme c3, …
 *   after each slice the loop runs the tasks queued meanwhile (answers to write); after the round it
 *   selects again, and a connection with more input is readable again at once for the next round
 * </pre>
 *
 * So a frame of another group found ready waits for at most one slice of a group with many busy
 * connections, and the answers the workers hand back wait for one slice, where reading each ready
 * connection to its end would make both wait for all of them. A frame that arrives during the round
 * waits for the rest of it: selecting between slices would report every still-readable connection
 * again each time, which costs more than it saves with many connections. Connections without a group form the group
 * {@code ""}. Lanes are kept for the loop's life (one per group seen: tenant ids, a bounded set), so
 * that serving allocates nothing.
 *
 * <p><b>Threading:</b> confined to the loop's thread.
 */
final class ReadLanes {

    /** One group's ready connections. */
    private static final class Lane {
        final ArrayDeque<TcpConnection> ready = new ArrayDeque<>();
        boolean queued;
    }

    private final Map<String, Lane> lanes = new HashMap<>();
    private final ArrayDeque<Lane> turn = new ArrayDeque<>();

    /** Queues {@code connection}, just found readable, in its group's lane. */
    void ready(TcpConnection connection) {
        if (!connection.markQueuedForRead()) {
            return; // already waiting for its slice (a select inside a slice found it again)
        }
        Lane lane = lanes.computeIfAbsent(connection.fairnessGroup(), group -> new Lane());
        lane.ready.add(connection);
        if (!lane.queued) {
            lane.queued = true;
            turn.add(lane);
        }
    }

    /**
     * Reads one slice of every queued connection, the groups in turn, running {@code betweenSlices}
     * after each (the loop's tasks: answers the workers handed back wait for one slice, not a round).
     */
    void serve(Runnable betweenSlices) {
        Lane lane;
        while ((lane = turn.poll()) != null) {
            TcpConnection connection = lane.ready.poll();
            if (connection != null) {
                connection.unmarkQueuedForRead(); // before the slice: a select inside it may queue it again
                connection.readSlice();
                betweenSlices.run();
            }
            if (lane.ready.isEmpty()) {
                lane.queued = false;
            } else {
                turn.add(lane);
            }
        }
    }

    /** Whether no connection waits for a slice. */
    boolean isEmpty() {
        return turn.isEmpty();
    }
}
