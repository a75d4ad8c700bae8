package io.troupe.server.session;

import java.util.function.BiConsumer;
import java.util.function.BiPredicate;
import java.util.function.UnaryOperator;

import io.troupe.api.ActorRef;
import io.troupe.api.TroupeRuntime;
import io.troupe.api.net.Connection;
import io.troupe.protocol.Frame;

/**
 * Back-pressure for one session: the one frame held back while the handler it is for has a full
 * mailbox. Before a frame is routed, the session asks whether the handler is above its high-water mark
 * ({@link TroupeRuntime#awaitDrain}); if it is, the frame is held, the connection stops reading, and the
 * session stops decoding, so the rest of the client's bytes wait in the connection's input buffer and
 * then in TCP. When the mailbox drains, the runtime runs the callback on its own thread; it hands the end
 * of the wait to the connection's loop, which gives the frame back to the session to route:
 *
 * <pre>
 *  loop:     hold(frame, handler) ─ awaitDrain true ─► held, suspendReading   (false: route it now)
 *  runtime:  mailbox below its low-water mark ─► connection.execute(drained)
 *  loop:     drained: still the current wait, still held? ─► onDrained(frame, handler); the session
 *            routes it and resumes reading
 * </pre>
 *
 * <p>Each wait is numbered, and {@link #takeBack()} or {@link #drop()} end the current one, so the drain
 * of a frame the session already answered otherwise (the server is stopping) or dropped (the connection
 * closed) is recognised as stale and ignored.
 *
 * <p><b>Threading:</b> confined to the connection's loop, like the session: {@link #hold}, {@link
 * #takeBack}, {@link #drop} and the drain's task run there. The one call from elsewhere is the runtime's
 * drain callback, which only queues that task.
 */
final class HeldFrame {

    private final Connection connection;
    private final BiPredicate<ActorRef, Runnable> awaitDrain;
    private final UnaryOperator<Runnable> guard;
    private final BiConsumer<Frame, ActorRef> onDrained;

    // Loop-confined.
    private Frame frame;
    private ActorRef target;
    /** Numbers the waits: a drain that does not carry the current number is stale. */
    private long waits;

    /**
     * @param connection the session's connection: reading is suspended here, and drains come back to its loop
     * @param awaitDrain {@link TroupeRuntime#awaitDrain}: registers the callback and answers {@code true} if
     *                   the handler's mailbox is above its high-water mark
     * @param guard      wraps the loop task of a drain, so that a failure closes this connection alone
     * @param onDrained  takes the held frame and its handler back, on the loop, once the mailbox drained
     */
    HeldFrame(Connection connection, BiPredicate<ActorRef, Runnable> awaitDrain, UnaryOperator<Runnable> guard,
            BiConsumer<Frame, ActorRef> onDrained) {
        this.connection = connection;
        this.awaitDrain = awaitDrain;
        this.guard = guard;
        this.onDrained = onDrained;
    }

    /**
     * Holds {@code frame} back if {@code handler}'s mailbox is above its high-water mark, suspending
     * reading until it drains.
     *
     * @return whether it was held; if not, the caller routes it now
     */
    boolean hold(Frame frame, ActorRef handler) {
        long wait = ++waits;
        if (awaitDrain.test(handler, () -> connection.execute(guard.apply(() -> drained(wait))))) {
            this.frame = frame;
            this.target = handler;
            connection.suspendReading();
            return true;
        }
        return false;
    }

    /** Whether a frame is held: the session then neither decodes nor counts as idle. */
    boolean isHolding() {
        return frame != null;
    }

    /**
     * Ends the wait and returns the held frame, for the session to answer otherwise; {@code null} if none
     * was held. Reading stays suspended: resuming it is the caller's decision.
     */
    Frame takeBack() {
        Frame taken = frame;
        forget();
        return taken;
    }

    /** Ends the wait and forgets the held frame: the connection closed. */
    void drop() {
        forget();
    }

    private void drained(long wait) {
        if (wait != waits || frame == null) {
            return; // stale: the frame was taken back or dropped, or a newer wait began
        }
        Frame released = frame;
        ActorRef handler = target;
        forget();
        onDrained.accept(released, handler);
    }

    private void forget() {
        frame = null;
        target = null;
        waits++;
    }
}
