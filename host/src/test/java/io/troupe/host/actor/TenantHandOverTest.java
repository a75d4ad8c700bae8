package io.troupe.host.actor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.junit.jupiter.api.Test;

import io.troupe.api.Actor;
import io.troupe.api.ActorContext;
import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.api.state.Durable;
import io.troupe.api.state.StateKey;

/**
 * A tenant handed over from one node to the next ({@link ActorSystem#handOverTenant}, what a cluster does
 * when a tenant's partition moves): the state of its actors that are not durable goes with it through the
 * store, and {@link ActorSystem#awaitTenantIdle} tells when its actors have processed what they were sent.
 * Each "node" is a deterministic runtime; they share one store, as a cluster's nodes share its map.
 */
class TenantHandOverTest {

    private static final String TENANT = "acme";

    private final ControlledStore store = new ControlledStore();
    private final List<String> lifecycle = new ArrayList<>();

    /** A counter that is not durable; on "spawn NAME" it spawns a child counter, named or not. */
    final class Counter implements Actor {
        private final String label;
        private long total;

        Counter(String label) {
            this.label = label;
        }

        @Override
        public void preStart(ActorContext ctx) {
            lifecycle.add(label + " preStart");
        }

        @Override
        public void receive(ActorContext ctx, Object message) {
            if (message instanceof Long amount) {
                total += amount;
            } else if (message instanceof String text && text.startsWith("spawn ")) {
                String name = text.substring("spawn ".length());
                ActorOptions options = name.equals("-") ? ActorOptions.defaults() : ActorOptions.defaults().withName(name);
                ctx.reply(ctx.spawn(() -> new Counter(label + "/" + name), options));
                return;
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
            lifecycle.add(label + " importState " + total);
        }
    }

    /** A durable counter: its state goes through its own key, never with the moved actors. */
    final class DurableCounter implements Actor, Durable {
        private long total;

        @Override
        public void receive(ActorContext ctx, Object message) {
            total += (Long) message;
            ctx.reply(total);
        }

        @Override
        public Object exportState(ActorContext ctx) {
            return total;
        }

        @Override
        public void importState(ActorContext ctx, Object state) {
            total = (Long) state;
        }
    }

    private TestRuntime node() {
        TestRuntime node = new TestRuntime();
        node.system.useStateStore(store, false);
        return node;
    }

    private ActorRef counter(TestRuntime node, String name) {
        return node.system.spawn(FactorySource.of(() -> new Counter(name), "handler:" + name),
                ActorOptions.defaults().withName(name), TENANT);
    }

    private static Object ask(TestRuntime node, ActorRef target, Object message) {
        CompletableFuture<Object> answer = node.system.askUnbounded(target, message).toCompletableFuture();
        node.settle();
        assertTrue(answer.isDone(), "answered");
        return answer.join();
    }

    private int handOver(TestRuntime node) {
        CompletableFuture<Integer> stopped = node.system.handOverTenant(TENANT).toCompletableFuture();
        node.settle();
        store.completeAll(); // the durable actors' last states
        node.settle();
        store.completeAll(); // the moved actors' entry, written on a worker once they have all stopped
        assertTrue(stopped.isDone(), "stopped once the store has the states");
        return stopped.join();
    }

    @Test
    void theStateOfActorsThatAreNotDurableGoesWithTheTenantToTheNextNode() {
        TestRuntime first = node();
        ActorRef counter = counter(first, "counter");
        ask(first, counter, 5L);
        ask(first, counter, 7L);
        ActorRef tally = (ActorRef) ask(first, counter, "spawn tally");
        ask(first, tally, 3L);
        ActorRef unnamed = (ActorRef) ask(first, counter, "spawn -");
        ask(first, unnamed, 100L);
        assertEquals(3, handOver(first));
        assertTrue(store.durable.containsKey(StateKey.movedActors(TENANT)), "one entry for the tenant");

        lifecycle.clear();
        TestRuntime next = node();
        ActorRef moved = counter(next, "counter");
        assertEquals(12L, ask(next, moved, 0L));
        assertEquals(List.of("counter preStart", "counter importState 12"), lifecycle,
                "preStart first, then the state, as a durable actor's start");
        assertEquals(3L, ask(next, (ActorRef) ask(next, moved, "spawn tally"), 0L), "a named child has a stable path");
        assertEquals(0L, ask(next, (ActorRef) ask(next, moved, "spawn -"), 0L),
                "an unnamed child cannot be told from another: it starts afresh");
        assertFalse(store.durable.containsKey(StateKey.movedActors(TENANT)), "read once, then deleted");
    }

    @Test
    void anEntryIsTakenOnceAndARestartedOrRespawnedActorStartsAfresh() {
        TestRuntime first = node();
        ask(first, counter(first, "counter"), 5L);
        handOver(first);

        TestRuntime next = node();
        ActorRef moved = counter(next, "counter");
        assertEquals(5L, ask(next, moved, 0L));
        next.system.stop(moved, StopReason.NORMAL);
        next.settle();
        assertEquals(0L, ask(next, counter(next, "counter"), 0L), "the entry was taken by the first one");
    }

    @Test
    void entriesNoActorTookTravelOnWithTheTenantsNextMove() {
        TestRuntime first = node();
        ask(first, counter(first, "a"), 1L);
        ask(first, counter(first, "b"), 2L);
        handOver(first);

        TestRuntime second = node();
        ask(second, counter(second, "a"), 10L); // a arrives (1) and goes on to 11; b never starts here
        handOver(second);

        TestRuntime third = node();
        assertEquals(11L, ask(third, counter(third, "a"), 0L));
        assertEquals(2L, ask(third, counter(third, "b"), 0L), "b's state from the first node");
    }

    @Test
    void durableActorsKeepTheirOwnKeyAndAPlainStopLeavesNothing() {
        TestRuntime first = node();
        ActorRef durable = first.system.spawn(FactorySource.of(DurableCounter::new, "handler:durable"),
                ActorOptions.defaults().withName("durable"), TENANT);
        CompletableFuture<Object> held = first.system.askUnbounded(durable, 4L).toCompletableFuture();
        first.settle();
        store.completeAll();
        first.settle();
        assertEquals(4L, held.join(), "answered once stored");
        handOver(first);
        assertFalse(store.durable.containsKey(StateKey.movedActors(TENANT)), "nothing but a durable actor moved");
        assertTrue(store.durable.containsKey(new StateKey(TENANT, "handler:durable", "durable")));

        TestRuntime second = node();
        ask(second, counter(second, "counter"), 9L);
        CompletableFuture<Integer> stopped = second.system.stopTenant(TENANT).toCompletableFuture();
        second.settle();
        assertTrue(stopped.isDone());
        assertFalse(store.durable.containsKey(StateKey.movedActors(TENANT)), "a tenant removed leaves nothing");
    }

    @Test
    void anActorWhoseStateCannotBeExportedStartsAfreshAndTheOthersStillMove() {
        TestRuntime first = node();
        ask(first, counter(first, "counter"), 5L);
        first.system.spawn(FactorySource.of(() -> new Actor() {
            @Override
            public void receive(ActorContext ctx, Object message) {
            }

            @Override
            public Object exportState(ActorContext ctx) {
                return new Object(); // not a type the state format stores
            }
        }, "handler:odd"), ActorOptions.defaults().withName("odd"), TENANT);
        first.settle();
        handOver(first);

        TestRuntime next = node();
        assertEquals(5L, ask(next, counter(next, "counter"), 0L));
    }

    @Test
    void awaitTenantIdleCompletesOnceWhatWasSentIsProcessed() {
        TestRuntime node = node();
        ActorRef counter = counter(node, "counter");
        for (long i = 1; i <= 10; i++) {
            counter.tell(i);
        }
        CompletableFuture<Boolean> idle = node.system.awaitTenantIdle(TENANT, Duration.ofSeconds(5))
                .toCompletableFuture();
        node.scheduler.advance(Duration.ofMillis(5));
        assertFalse(idle.isDone(), "ten messages wait: not idle, however long it looks");
        node.settle();
        node.scheduler.advance(Duration.ofMillis(1));
        assertFalse(idle.isDone(), "idle once is not enough: the next look must agree");
        node.scheduler.advance(Duration.ofMillis(1));
        assertTrue(idle.getNow(false));
        assertEquals(55L, ask(node, counter, 0L));
        assertTrue(node.system.awaitTenantIdle("nobody", Duration.ZERO).toCompletableFuture().getNow(false),
                "a tenant without actors is idle");
    }

    @Test
    void aMessageQueuedBetweenTheTwoLooksStartsTheWaitAgain() {
        TestRuntime node = node();
        ActorRef counter = counter(node, "counter");
        node.settle();
        CompletableFuture<Boolean> idle = node.system.awaitTenantIdle(TENANT, Duration.ofSeconds(5))
                .toCompletableFuture();
        counter.tell(1L);
        node.settle(); // processed before the second look: the count of queued messages moved all the same
        node.scheduler.advance(Duration.ofMillis(1));
        assertFalse(idle.isDone(), "a message came between the looks");
        node.scheduler.advance(Duration.ofMillis(1));
        assertTrue(idle.getNow(false));
    }

    @Test
    void anActorThatKeepsItselfBusyRunsOutThePatience() {
        TestRuntime node = node();
        ActorRef looper = node.system.spawn(FactorySource.of(() -> (ctx, message) -> ctx.self().tell(message),
                "handler:loop"), ActorOptions.defaults().withName("loop"), TENANT);
        looper.tell("again");
        CompletionStage<Boolean> idle = node.system.awaitTenantIdle(TENANT, Duration.ofMillis(10));
        for (int i = 0; i < 12; i++) {
            node.dispatcher.runOne();
            node.scheduler.advance(Duration.ofMillis(1));
        }
        assertEquals(Boolean.FALSE, idle.toCompletableFuture().getNow(null));
    }
}
