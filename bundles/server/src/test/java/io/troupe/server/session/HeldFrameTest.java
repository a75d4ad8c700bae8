package io.troupe.server.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;

import org.junit.jupiter.api.Test;

import io.troupe.api.ActorRef;
import io.troupe.protocol.Frame;

/**
 * {@link HeldFrame} on an in-memory connection: a frame for a handler with a full mailbox is held and
 * reading stops; the drain, queued as a loop task, hands it back once; a drain that no longer matches
 * the current wait (the frame was taken back or dropped, or a newer frame is held) releases nothing.
 * The runtime's {@code awaitDrain} is played by the test, which decides whether the mailbox is full and
 * runs the drain callback itself.
 */
class HeldFrameTest {

    private final ManualConnection connection = new ManualConnection();
    private final List<Runnable> drainCallbacks = new ArrayList<>();
    private final List<Frame> released = new ArrayList<>();
    private final List<ActorRef> releasedTo = new ArrayList<>();
    private final List<String> guarded = new ArrayList<>();
    private final Handler handler = new Handler();
    private boolean mailboxFull;
    private final HeldFrame held = new HeldFrame(connection, (target, onDrained) -> {
        if (mailboxFull) {
            drainCallbacks.add(onDrained);
        }
        return mailboxFull;
    }, task -> () -> {
        guarded.add("task");
        task.run();
    }, (frame, target) -> {
        released.add(frame);
        releasedTo.add(target);
    });

    @Test
    void aFrameForAHandlerWithRoomIsNotHeldAndReadingGoesOn() {
        assertFalse(held.hold(request(1), handler));
        assertFalse(held.isHolding());
        assertFalse(connection.isSuspended());
        assertNull(held.takeBack());
    }

    @Test
    void aFrameForAFullMailboxIsHeldWithReadingSuspendedAndHandedBackOnTheLoopOnceItDrains() {
        mailboxFull = true;
        Frame frame = request(1);
        assertTrue(held.hold(frame, handler));
        assertTrue(held.isHolding());
        assertTrue(connection.isSuspended());

        drainCallbacks.get(0).run(); // the runtime's thread: it only queues a loop task
        assertTrue(released.isEmpty());
        assertEquals(1, connection.queuedTasks());

        connection.runTasks();
        assertEquals(List.of(frame), released);
        assertSame(handler, releasedTo.get(0));
        assertEquals(List.of("task"), guarded, "the loop task runs inside the session's guard");
        assertFalse(held.isHolding());
        assertTrue(connection.isSuspended(), "resuming is the session's decision, after it routed the frame");
    }

    @Test
    void aFrameTakenBackIsNotHandedBackWhenTheMailboxDrainsLater() {
        mailboxFull = true;
        Frame frame = request(1);
        held.hold(frame, handler);

        assertSame(frame, held.takeBack());
        assertFalse(held.isHolding());
        drainCallbacks.get(0).run();
        connection.runTasks();
        assertTrue(released.isEmpty());
    }

    @Test
    void aDroppedFrameIsNotHandedBackWhenTheMailboxDrainsLater() {
        mailboxFull = true;
        held.hold(request(1), handler);

        held.drop();
        drainCallbacks.get(0).run();
        connection.runTasks();
        assertTrue(released.isEmpty());
        assertFalse(held.isHolding());
    }

    @Test
    void theDrainOfAnEarlierWaitDoesNotReleaseTheFrameHeldNow() {
        mailboxFull = true;
        held.hold(request(1), handler);
        held.takeBack();
        Frame second = request(2);
        held.hold(second, handler);

        drainCallbacks.get(0).run(); // late: the first wait's
        connection.runTasks();
        assertTrue(released.isEmpty());
        assertTrue(held.isHolding());

        drainCallbacks.get(1).run();
        connection.runTasks();
        assertEquals(List.of(second), released);
    }

    @Test
    void aDrainThatComesTwiceHandsTheFrameBackOnce() {
        mailboxFull = true;
        held.hold(request(1), handler);

        drainCallbacks.get(0).run();
        drainCallbacks.get(0).run();
        connection.runTasks();
        assertEquals(1, released.size());
    }

    private static Frame request(long corrId) {
        return Frame.request(corrId, "echo", new byte[] {(byte) corrId});
    }

    /**
     * The handler a frame is for. {@code HeldFrame} only hands it back; it never sends to it, which
     * every sending method asserts by refusing.
     */
    private static final class Handler implements ActorRef {

        @Override
        public long id() {
            return 7;
        }

        @Override
        public long parentId() {
            return 0;
        }

        @Override
        public String name() {
            return "handler:echo";
        }

        @Override
        public void tell(Object message, ActorRef sender) {
            throw new AssertionError("HeldFrame told the handler " + message);
        }

        @Override
        public boolean offer(Object message, ActorRef sender) {
            throw new AssertionError("HeldFrame offered the handler " + message);
        }

        @Override
        public boolean send(Object message, ActorRef sender, Duration timeout) {
            throw new AssertionError("HeldFrame sent the handler " + message);
        }

        @Override
        public CompletionStage<Object> ask(Object message, Duration timeout) {
            throw new AssertionError("HeldFrame asked the handler " + message);
        }

        @Override
        public boolean isStopped() {
            return false;
        }

        @Override
        public CompletionStage<Void> whenTerminated() {
            return new java.util.concurrent.CompletableFuture<>();
        }
    }
}
