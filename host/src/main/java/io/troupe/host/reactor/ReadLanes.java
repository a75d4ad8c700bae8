package io.troupe.host.reactor;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * The connections of one event loop that are ready to read, by fairness group (the server's tenant),
 * read a slice at a time (one buffer's worth, decoded and handed on), the groups in turn:
 *
 * <pre>
 *   select ─► ready(c) per readable key ─► lane of c's group
 *   pass:     one slice per group: acme c1, globex c9   (then the loop's tasks after each slice)
 *   select ─► (non-blocking while lanes wait) c1 readable again: acme [c2 c3 … c1]
 *   pass:     acme c2, globex …
 * </pre>
 *
 * So a group's many busy connections together get one slice per pass, like another group's single
 * connection: a tenant's frames wait for at most one slice of each other busy tenant, and answers the
 * workers hand back wait for one slice, where reading every ready connection to its end would make
 * both wait for all of them. Connections without a group form the group {@code ""}. Lanes are kept
 * for the loop's life (one per group seen: tenant ids, a bounded set), so that serving allocates
 * nothing.
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
     * One pass: one slice for each group with a connection waiting, the groups in turn, running
     * {@code betweenSlices} after each (the loop's tasks: answers the workers handed back wait for one
     * slice). The connection read leaves its lane; if its socket holds more, the loop's next select,
     * right after the pass, queues it again behind the others of its group. So a group with many busy
     * connections gets one slice per pass, like a group with one.
     */
    void serve(Runnable betweenSlices) {
        for (int lanesThisPass = turn.size(); lanesThisPass > 0; lanesThisPass--) {
            Lane lane = turn.poll();
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
