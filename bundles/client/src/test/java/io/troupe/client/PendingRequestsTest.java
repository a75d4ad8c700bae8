package io.troupe.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameEncoder;
import io.troupe.protocol.FrameType;

class PendingRequestsTest {

    private final PendingRequests pending = new PendingRequests();

    private PendingRequests.Pending add(long corrId, long deadline) {
        return add(corrId, deadline, false);
    }

    private PendingRequests.Pending add(long corrId, long deadline, boolean idempotent) {
        CompletableFuture<byte[]> answer = new CompletableFuture<>();
        OutboundFrame request = frame(FrameType.REQUEST, corrId, answer);
        PendingRequests.Pending entry = new PendingRequests.Pending(corrId, FrameType.REQUEST, "echo", deadline,
                answer, request, idempotent);
        pending.add(entry);
        return entry;
    }

    /** An entry as the client puts it on the wire: a copy, written wholly into the socket or not. */
    private static void onTheWire(PendingRequests.Pending entry, boolean written) {
        entry.wire = entry.request.wireCopy();
        entry.wire.bytes.position(entry.wire.bytes.limit());
        if (written) {
            entry.wire.markWritten();
        }
    }

    private static OutboundFrame frame(FrameType type, long corrId, CompletableFuture<byte[]> answer) {
        Frame frame = type == FrameType.SEND ? Frame.send(corrId, "say", new byte[] {1})
                : Frame.request(corrId, "echo", new byte[] {1});
        return new OutboundFrame(type, corrId, frame.name(), FrameEncoder.encode(frame), answer, null);
    }

    private static List<Long> corrIds(List<?> entries) {
        return entries.stream().map(entry -> entry instanceof OutboundFrame frame ? frame.corrId
                : ((PendingRequests.Pending) entry).corrId).toList();
    }

    @Test
    void afterARedirectEveryUnansweredRequestIsHeldAndKeepAlivePingsAreDropped() {
        onTheWire(add(1, 100), true);
        onTheWire(add(2, 200), false);
        PendingRequests.Pending keepAlive = new PendingRequests.Pending(3, FrameType.PING, "", 300,
                new CompletableFuture<>(), null, true);
        pending.add(keepAlive);

        assertEquals(List.of(3L), corrIds(pending.holdAllForRedirect()));

        assertEquals(List.of(1L, 2L), corrIds(pending.takeHeld()));
        assertEquals(2, pending.size());
    }

    @Test
    void afterALossOnlyRequestsThatMayHaveArrivedAndAreNotIdempotentAreDropped() {
        onTheWire(add(1, 100, false), true);
        onTheWire(add(2, 200, false), false);
        onTheWire(add(3, 300, true), true);
        add(4, 400, false);

        assertEquals(List.of(1L), corrIds(pending.holdRetriable()));

        assertEquals(List.of(2L, 3L, 4L), corrIds(pending.takeHeld()));
    }

    @Test
    void heldFramesGoOutInCorrIdOrderWithTheHeldSendsAndWholeAgain() {
        PendingRequests.Pending first = add(5, 100);
        onTheWire(first, true);
        pending.holdAllForRedirect();
        pending.holdSend(frame(FrameType.SEND, 6, null));
        add(7, 200);
        pending.holdSend(frame(FrameType.SEND, 4, null));

        List<OutboundFrame> held = pending.takeHeld();

        assertEquals(List.of(4L, 5L, 6L, 7L), corrIds(held));
        OutboundFrame resent = held.get(1);
        assertSame(first.wire, resent);
        assertEquals(0, resent.bytes.position(), "a held request goes out whole, from its first byte");
        assertNull(resent.answer, "the wire copy leaves the answer to the pending entry");
        assertTrue(pending.takeHeld().isEmpty(), "once on the wire, nothing is held");
    }

    @Test
    void anAnsweredEntryLeavesFromTheMiddle() {
        add(1, 100);
        PendingRequests.Pending second = add(2, 200);
        add(3, 300);

        assertSame(second, pending.remove(2));
        assertNull(pending.remove(2));
        assertEquals(2, pending.size());
        assertEquals(100, pending.firstDeadline());
    }

    @Test
    void expireTakesTheDueEntriesOldestFirstAndStopsAtTheFirstLaterOne() {
        add(1, 100);
        add(2, 200);
        add(3, 300);
        pending.remove(1);

        List<PendingRequests.Pending> expired = pending.expire(200);

        assertEquals(List.of(2L), expired.stream().map(entry -> entry.corrId).toList());
        assertEquals(300, pending.firstDeadline());
    }

    @Test
    void deadlinesCompareCorrectlyAcrossTheWrapOfNanoTime() {
        add(1, Long.MAX_VALUE - 10);
        add(2, Long.MIN_VALUE + 10); // 21 ns later, past the wrap

        assertEquals(1, pending.expire(Long.MAX_VALUE).size());
        assertTrue(pending.expire(Long.MAX_VALUE).isEmpty());
        assertEquals(1, pending.expire(Long.MIN_VALUE + 10).size());
    }

    @Test
    void removeAllEmptiesTheTable() {
        add(1, 100);
        add(2, 200);

        assertEquals(2, pending.removeAll().size());
        assertTrue(pending.isEmpty());
    }

    @Test
    void aPingExpectsAPong() {
        PendingRequests.Pending ping = new PendingRequests.Pending(9, FrameType.PING, "", 0, new CompletableFuture<>(),
                null, true);

        assertEquals(FrameType.PONG, ping.expectedAnswer());
    }
}
