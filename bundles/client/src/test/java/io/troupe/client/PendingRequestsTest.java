package io.troupe.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import io.troupe.protocol.FrameType;

class PendingRequestsTest {

    private final PendingRequests pending = new PendingRequests();

    private PendingRequests.Pending add(long corrId, long deadline) {
        PendingRequests.Pending entry = new PendingRequests.Pending(corrId, FrameType.REQUEST, "echo", deadline,
                new CompletableFuture<>());
        pending.add(entry);
        return entry;
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
        PendingRequests.Pending ping = new PendingRequests.Pending(9, FrameType.PING, "", 0, new CompletableFuture<>());

        assertEquals(FrameType.PONG, ping.expectedAnswer());
    }
}
