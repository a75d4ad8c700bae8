package io.troupe.host.actor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import io.troupe.api.state.StateKey;

/**
 * One write in flight per actor, the turns meanwhile coalesced into one next write; a strict failure taints
 * the state until an instance starts from the store, a lenient one does not.
 */
class StateWritesTest {

    private final ControlledStore store = new ControlledStore();
    private final StateWrites writes = new StateWrites(new StateKey("t", "o", "a"), store);

    private static byte[] state(int value) {
        return new byte[] {(byte) value};
    }

    @Test
    void anUnchangedStateWaitsForTheNewestWriteAndPassesWhenThereIsNone() {
        CompletableFuture<Void> one = writes.submit(state(1), true);
        assertSame(one, writes.submit(state(1), true), "same state: it waits for the write in flight");
        CompletableFuture<Void> two = writes.submit(state(2), true);
        assertSame(two, writes.submit(state(2), true), "same state as the queued one: it waits for that");
        store.completeAll();
        assertTrue(two.isDone() && !two.isCompletedExceptionally());
        assertTrue(writes.submit(state(2), true).isDone(), "nothing in flight: an unchanged turn passes");
        assertEquals(2, store.writes);
    }

    @Test
    void aStrictFailureTaintsUntilAnInstanceStartsFromTheStore() {
        CompletableFuture<Void> one = writes.submit(state(1), true);
        CompletableFuture<Void> two = writes.submit(state(2), true);
        store.failNext();
        assertTrue(one.isCompletedExceptionally());
        assertTrue(two.isCompletedExceptionally(), "the queued turn ran on the refused state");
        assertTrue(writes.tainted());
        assertTrue(writes.submit(state(3), true).isCompletedExceptionally());
        assertEquals(1, store.writes, "nothing after the refusal reached the store");
        writes.startedFrom(state(0), false);
        assertTrue(writes.tainted(), "an instance that went on from a snapshot of the cell is still tainted");
        writes.startedFrom(null, true);
        assertFalse(writes.tainted());
        CompletableFuture<Void> clean = writes.submit(state(3), true);
        store.completeNext();
        assertTrue(clean.isDone() && !clean.isCompletedExceptionally());
    }

    @Test
    void aLenientFailureFailsItsTurnsOnlyAndTheNextWriteCarriesTheWholeState() {
        CompletableFuture<Void> one = writes.submit(state(1), false);
        CompletableFuture<Void> two = writes.submit(state(2), false);
        store.failNext();
        assertTrue(one.isCompletedExceptionally());
        assertFalse(writes.tainted());
        assertEquals(2, store.writes, "the queued state went to the store after the failure");
        store.completeNext();
        assertTrue(two.isDone() && !two.isCompletedExceptionally());
        CompletableFuture<Void> again = writes.submit(state(2), false);
        assertTrue(again.isDone(), "2 is durable: unchanged");
        CompletableFuture<Void> three = writes.submit(state(3), false);
        store.failNext();
        assertTrue(three.isCompletedExceptionally());
        assertEquals(null, writes.last(), "the store does not have 3: no restart starts from it");
        writes.submit(state(3), false);
        assertEquals(4, store.writes, "after a failure the same state is written again");
    }
}
