package io.troupe.host.actor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.troupe.api.Actor;
import io.troupe.api.ActorContext;
import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.api.ErrorCode;
import io.troupe.api.TroupeException;
import io.troupe.api.state.Durability;
import io.troupe.api.state.Durable;
import io.troupe.api.state.StateKey;
import io.troupe.host.state.StateCodec;

/**
 * What a durable actor does with its store, on a deterministic runtime and a store whose writes become
 * durable when the test says: replies wait for the write in mode every-turn, in order; an unchanged
 * state writes nothing; a failed write withdraws the replies and restarts the actor from its last stored
 * state; a new instance starts from what is stored; the periodic and on-request modes write when they say.
 */
class DurableActorTest {

    private static final StateCodec CODEC = new StateCodec();

    private final TestRuntime runtime = new TestRuntime();
    private final ControlledStore store = new ControlledStore();
    private final List<String> lifecycle = new ArrayList<>();

    @BeforeEach
    void useTheStore() {
        runtime.system.useStateStore(store, true);
    }

    /** Adds what it is told to its total and replies the total; "get" only replies. */
    private final class Counter implements Actor, Durable {
        private final Durability durability;
        private long total;

        Counter(Durability durability) {
            this.durability = durability;
        }

        @Override
        public Durability durability() {
            return durability;
        }

        @Override
        public void preStart(ActorContext ctx) {
            lifecycle.add("preStart " + total);
        }

        @Override
        public void receive(ActorContext ctx, Object message) throws Exception {
            if (message instanceof Long amount) {
                total += amount;
            } else if ("save".equals(message)) {
                ctx.saveState();
            } else if ("boom".equals(message)) {
                throw new IllegalStateException("boom");
            }
            ctx.reply(total);
        }

        @Override
        public Object exportState(ActorContext ctx) {
            return total;
        }

        @Override
        public void importState(ActorContext ctx, Object state) {
            total = (Long) state;
            lifecycle.add("importState " + total);
        }
    }

    private ActorRef counter(Durability durability) {
        return runtime.system.spawn(() -> new Counter(durability), ActorOptions.defaults().withName("counter"));
    }

    /** An every-turn counter whose total 2 the store has made durable. */
    private ActorRef everyTurnCounterAtStored2() {
        ActorRef counter = counter(Durability.everyTurn());
        ask(counter, 2L);
        runtime.settle();
        store.completeNext();
        return counter;
    }

    private CompletableFuture<Object> ask(ActorRef actor, Object message) {
        return actor.ask(message, Duration.ofSeconds(5)).toCompletableFuture();
    }

    @Test
    void everyTurnHoldsTheReplyUntilTheSnapshotIsDurable() {
        ActorRef counter = counter(Durability.everyTurn());
        CompletableFuture<Object> reply = ask(counter, 5L);
        runtime.settle();
        assertFalse(reply.isDone(), "the reply waits for the write");
        assertEquals(1, store.pending.size());
        assertEquals(new StateKey("", ReadableName.of(getClass()), "counter"), store.pending.get(0).key());
        assertEquals(5L, CODEC.decode(store.pending.get(0).snapshot(), "test"));
        store.completeNext();
        assertEquals(5L, reply.getNow(null));
    }

    @Test
    void repliesLeaveInTurnOrderAndAnUnchangedStateWritesNothing() {
        ActorRef counter = counter(Durability.everyTurn());
        CompletableFuture<Object> first = ask(counter, 1L);
        runtime.settle();
        CompletableFuture<Object> unchanged = ask(counter, "get");
        runtime.settle();
        assertEquals(1, store.writes, "a turn that changed nothing wrote nothing");
        assertFalse(unchanged.isDone(), "it must not overtake the earlier turn's reply");
        store.completeNext();
        assertEquals(1L, first.getNow(null));
        assertEquals(1L, unchanged.getNow(null));
    }

    @Test
    void aFailedWriteWithdrawsTheReplyAndTheActorRestartsFromTheStoredState() {
        ActorRef counter = everyTurnCounterAtStored2();
        CompletableFuture<Object> lost = ask(counter, 40L);
        runtime.settle();
        store.failNext();
        runtime.settle();
        assertEquals(ErrorCode.STATE_UNAVAILABLE, MessagingTest.causeOf(lost, TroupeException.class).code());
        CompletableFuture<Object> after = ask(counter, "get");
        runtime.settle();
        store.completeAll();
        runtime.settle();
        assertEquals(2L, after.getNow(null), "the restart read the last durable total, not the lost 42");
        assertTrue(lifecycle.contains("importState 2"), lifecycle.toString());
    }

    @Test
    void aClientThatSendsAtOnceWhenToldOfTheRefusalFindsTheRestartedActor() {
        ActorRef counter = everyTurnCounterAtStored2();
        CompletableFuture<Object> lost = ask(counter, 40L);
        runtime.settle();
        List<CompletableFuture<Object>> next = new ArrayList<>();
        // the next request leaves the moment the refusal arrives, before anything else runs (CI saw it overtake
        // the restart: the old instance added 1 to the lost 42 and the store then took 43)
        lost.whenComplete((reply, failure) -> next.add(ask(counter, 1L)));
        store.failNext();
        assertEquals(1, next.size(), "the refusal arrived");
        runtime.settle();
        store.completeAll();
        runtime.settle();
        assertEquals(ErrorCode.STATE_UNAVAILABLE, MessagingTest.causeOf(lost, TroupeException.class).code());
        assertEquals(3L, next.get(0).getNow(null), "the restarted actor took the request, from the stored 2");
        assertEquals(3L, CODEC.decode(store.durable.values().iterator().next(), "test"));
    }

    @Test
    void aWriteRefusedAfterARestartTookItsSnapshotRestartsTheNewInstanceFromTheStore() {
        ActorRef counter = everyTurnCounterAtStored2();
        CompletableFuture<Object> lost = ask(counter, 5L);
        runtime.settle();
        CompletableFuture<Object> boom = ask(counter, "boom");
        runtime.settle(); // restarted from 7, the snapshot the store was about to have
        assertTrue(boom.isCompletedExceptionally());
        store.failNext(); // it will not have it
        runtime.settle();
        CompletableFuture<Object> after = ask(counter, "get");
        runtime.settle();
        store.completeAll();
        runtime.settle();
        assertEquals(ErrorCode.STATE_UNAVAILABLE, MessagingTest.causeOf(lost, TroupeException.class).code());
        assertEquals(2L, after.getNow(null), "the instance that went on from the refused 7 restarted from the stored 2");
        assertEquals(2L, CODEC.decode(store.durable.values().iterator().next(), "test"));
    }

    @Test
    void aRestartWhileAWriteIsPendingGoesOnFromTheNewestStateNotTheStoresOlderCopy() {
        ActorRef counter = counter(Durability.everyTurn());
        CompletableFuture<Object> five = ask(counter, 5L);
        runtime.settle();
        CompletableFuture<Object> boom = ask(counter, "boom");
        runtime.settle(); // failed and restarted while the write of 5 is still pending
        assertTrue(boom.isCompletedExceptionally());
        CompletableFuture<Object> more = ask(counter, 1L);
        runtime.settle();
        store.completeAll();
        runtime.settle();
        assertEquals(5L, five.getNow(null));
        assertEquals(6L, more.getNow(null), "the restart went on from 5, which the store was about to have");
        assertEquals(6L, CODEC.decode(store.durable.values().iterator().next(), "test"));
    }

    @Test
    void turnsThatRunWhileAWriteIsInFlightWriteOnceAfterItTheNewestState() {
        ActorRef counter = everyTurnCounterAtStored2();
        CompletableFuture<Object> three = ask(counter, 1L);
        runtime.settle();
        CompletableFuture<Object> four = ask(counter, 1L);
        CompletableFuture<Object> five = ask(counter, 1L);
        runtime.settle();
        assertEquals(2, store.writes, "one write of 3 in flight; 4 and 5 wait for it");
        assertFalse(four.isDone());
        store.completeNext();
        assertEquals(3L, three.getNow(null));
        assertFalse(four.isDone(), "4 is not durable yet: the write of 5 carries it");
        assertEquals(3, store.writes, "one write for the two waiting turns, of their newest state");
        assertEquals(5L, CODEC.decode(store.pending.get(0).snapshot(), "test"));
        store.completeNext();
        assertEquals(4L, four.getNow(null));
        assertEquals(5L, five.getNow(null));
    }

    @Test
    void pipelinedTurnsOnARefusedStateAreRefusedTooAndTheirStateIsNeverWritten() {
        ActorRef counter = everyTurnCounterAtStored2();
        CompletableFuture<Object> refused = ask(counter, 40L);
        runtime.settle();
        CompletableFuture<Object> later = ask(counter, 100L);
        CompletableFuture<Object> read = ask(counter, "get");
        runtime.settle();
        store.failNext();
        runtime.settle();
        assertTrue(store.pending.isEmpty(), "142, which carries the refused 40, went nowhere near the store");
        for (CompletableFuture<Object> reply : List.of(refused, later, read)) {
            assertEquals(ErrorCode.STATE_UNAVAILABLE, MessagingTest.causeOf(reply, TroupeException.class).code());
        }
        CompletableFuture<Object> after = ask(counter, "get");
        runtime.settle();
        assertEquals(2L, after.getNow(null), "restarted from the stored 2");
        assertEquals(2L, CODEC.decode(store.durable.values().iterator().next(), "test"));
        assertEquals(List.of("preStart 0", "preStart 0", "importState 2"), lifecycle,
                "one restart for the three refused turns");
    }

    @Test
    void aRefusedWriteLeavesTheEarlierDurableTurnsAnswered() {
        ActorRef counter = everyTurnCounterAtStored2();
        CompletableFuture<Object> kept = ask(counter, 1L);
        runtime.settle();
        CompletableFuture<Object> refused = ask(counter, 10L);
        runtime.settle();
        store.completeNext();
        assertEquals(3L, kept.getNow(null));
        store.failNext();
        runtime.settle();
        assertEquals(ErrorCode.STATE_UNAVAILABLE, MessagingTest.causeOf(refused, TroupeException.class).code());
        CompletableFuture<Object> after = ask(counter, "get");
        runtime.settle();
        assertEquals(3L, after.getNow(null));
    }

    @Test
    void aNewInstanceStartsFromTheStoredStateAfterPreStart() {
        store.durable.put(new StateKey("", ReadableName.of(getClass()), "counter"), CODEC.encode(7L, "test"));
        ActorRef counter = counter(Durability.everyTurn());
        CompletableFuture<Object> reply = ask(counter, "get");
        runtime.settle();
        assertEquals(List.of("preStart 0", "importState 7"), lifecycle);
        assertEquals(0, store.writes, "restoring is no change");
        assertEquals(7L, reply.getNow(null));
    }

    @Test
    void periodicWritesAtMostOncePerIntervalAndRepliesAtOnce() {
        ActorRef counter = counter(Durability.atMostEvery(Duration.ofMillis(10)));
        CompletableFuture<Object> first = ask(counter, 1L);
        CompletableFuture<Object> second = ask(counter, 1L);
        runtime.settle();
        assertEquals(2L, second.getNow(null));
        assertTrue(first.isDone());
        assertEquals(0, store.writes, "nothing before the interval");
        runtime.scheduler.advance(Duration.ofMillis(10));
        runtime.settle();
        assertEquals(1, store.writes);
        store.completeNext();
        assertEquals(2L, CODEC.decode(store.durable.values().iterator().next(), "test"));
    }

    @Test
    void onRequestWritesWhenTheActorSavesAndWhenItStops() {
        ActorRef counter = counter(Durability.onRequest());
        ask(counter, 3L);
        runtime.settle();
        assertEquals(0, store.writes);
        ask(counter, "save");
        runtime.settle();
        assertEquals(1, store.writes);
        ask(counter, 4L);
        runtime.settle();
        runtime.system.stop(counter, StopReason.NORMAL);
        runtime.settle();
        store.completeAll(); // the stop's write waits for the save's
        assertEquals(2, store.writes, "a normal stop writes the last state");
        assertEquals(7L, CODEC.decode(store.durable.values().iterator().next(), "test"));
    }

    @Test
    void aDurableActorWithoutAStableNameDoesNotStart() {
        ActorRef anonymous = runtime.system.spawn(() -> new Counter(Durability.everyTurn()), ActorOptions.defaults());
        CompletableFuture<Object> reply = ask(anonymous, 1L);
        runtime.settle();
        assertTrue(reply.isCompletedExceptionally(), "it never ran");
        assertEquals(0, store.writes);
    }

    @Test
    void aStateTheStoreCannotHoldFailsTheTurnWithANamedError() {
        ActorRef holder = runtime.system.spawn(() -> new DurableHolder(), ActorOptions.defaults().withName("holder"));
        CompletableFuture<Object> reply = ask(holder, "x");
        runtime.settle();
        TroupeException failure = MessagingTest.causeOf(reply, TroupeException.class);
        assertEquals(ErrorCode.STATE_UNAVAILABLE, failure.code());
        assertTrue(failure.detail().contains("Thread"), failure.detail());
    }

    /** Keeps a thread in its state: not storable. */
    private static final class DurableHolder implements Actor, Durable {
        @Override
        public void receive(ActorContext ctx, Object message) {
            ctx.reply("ok");
        }

        @Override
        public Object exportState(ActorContext ctx) {
            return List.of(Thread.currentThread());
        }
    }
}
