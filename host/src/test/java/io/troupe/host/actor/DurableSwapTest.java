package io.troupe.host.actor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.troupe.api.Actor;
import io.troupe.api.ActorContext;
import io.troupe.api.ActorFactory;
import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.api.state.Durability;
import io.troupe.api.state.Durable;
import io.troupe.api.state.StateKey;
import io.troupe.host.state.StateCodec;

/**
 * A durable actor that a hot swap takes over before its instance read the store starts, on the next
 * revision, from its stored state, and nothing derived from an instance that never read it is written:
 * the soak's finding (a tenant's first request after a restart created its counter while the counter
 * plugin was swapped; the swap collected it as a fresh actor, gave the new instance {@code preStart}
 * but not its stored total, and its first turn stored 0 + n over the total). Each test orders the
 * creation, the swap's steps and the store exactly, with the manual dispatcher.
 *
 * <p><b>Threading:</b> the test thread only (manual dispatcher; the store completes on it).
 */
class DurableSwapTest {

    private static final StateCodec CODEC = new StateCodec();
    private static final String ORIGIN = "handler:counter";
    private static final StateKey ALPHA = new StateKey("alpha", ORIGIN, "counter");

    private final TestRuntime runtime = new TestRuntime();
    private final ControlledStore store = new ControlledStore();
    private final List<String> lifecycle = new ArrayList<>();
    /** The revision being swapped out: the test's own classes, which the v1 factory's lambda comes from. */
    private final CodeSwap swap = new CodeSwap(DurableSwapTest.class.getClassLoader());

    @BeforeEach
    void storeHoldsAlphasTotal() {
        runtime.system.useStateStore(store, true);
        store.durable.put(ALPHA, CODEC.encode(140L, "test"));
    }

    /** Adds what it is told to its total and replies the total; "get" only replies. */
    private final class Counter implements Actor, Durable {
        private final String revision;
        private long total;

        Counter(String revision) {
            this.revision = revision;
        }

        @Override
        public Durability durability() {
            return Durability.everyTurn();
        }

        @Override
        public void preStart(ActorContext ctx) {
            lifecycle.add(revision + " preStart");
        }

        @Override
        public void receive(ActorContext ctx, Object message) {
            if (message instanceof Long amount) {
                total += amount;
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
            lifecycle.add(revision + " imports " + total);
        }
    }

    private FactorySource revision(String name) {
        return FactorySource.of(() -> new Counter(name), ORIGIN);
    }

    private ActorRef spawnAlpha() {
        return runtime.system.spawn(revision("v1"), ActorOptions.defaults().withName("counter"), "alpha");
    }

    private CompletableFuture<Object> ask(ActorRef actor, Object message) {
        CompletableFuture<Object> reply = actor.ask(message, Duration.ofSeconds(5)).toCompletableFuture();
        runtime.settle();
        return reply;
    }

    private void settled(SwapBarrier barrier) throws InterruptedException {
        runtime.settle();
        assertEquals(List.of(), barrier.await(Duration.ZERO), lifecycle.toString());
    }

    /** Prepares {@code actor} on v2 and commits, as PluginSwaps.complete does once v2 registered. */
    private void completeOnV2(ActorRef actor) throws InterruptedException {
        settled(runtime.system.prepare(Map.of(actor, revision("v2"))));
        runtime.system.commit(List.of(actor));
        runtime.system.closeSwap(swap);
        swap.decideLate(late -> runtime.system.startOn(late.ref(), revision("v2"), swap));
        runtime.settle();
    }

    private long stored() {
        store.completeAll();
        runtime.settle();
        return (Long) CODEC.decode(store.durable.get(ALPHA), "test");
    }

    /**
     * The soak's order: the swap begins, the tenant's first request creates its counter (a late actor,
     * detached), the swap's second collection takes it as a fresh actor, v2 commits. The v2 instance
     * gets preStart and then the stored total, and its first add stores 141, not 1.
     */
    @Test
    void anActorCreatedWhileTheSwapRunsAndCollectedByItStartsFromItsStoredState() throws Exception {
        settled(runtime.system.detachAll(swap, List.of()));   // begin: no counter of alpha's lives yet
        ActorRef alpha = spawnAlpha();                             // the first request after the restart
        CompletableFuture<Object> get = ask(alpha, "get");
        assertFalse(get.isDone(), "it waits for the swap");
        settled(runtime.system.detachAll(swap, List.of()));   // complete: the stragglers join
        assertEquals(List.of(alpha), swap.detached().stream().map(DetachedActor::ref).toList());

        completeOnV2(alpha);

        assertEquals(List.of("v2 preStart", "v2 imports 140"), lifecycle);
        assertEquals(140L, get.getNow(null), "the stored total, not a fresh instance's 0");
        CompletableFuture<Object> add = ask(alpha, 1L);
        assertEquals(141L, stored(), "the first write goes on from the stored total");
        assertEquals(141L, add.getNow(null));
    }

    /** The same creation left to the swap's decision (not collected): it starts on v2 from its stored state. */
    @Test
    void aLateActorStartedOnTheNextRevisionStartsFromItsStoredState() throws Exception {
        settled(runtime.system.detachAll(swap, List.of()));
        ActorRef alpha = spawnAlpha();
        CompletableFuture<Object> get = ask(alpha, "get");
        runtime.system.closeSwap(swap);
        swap.decideLate(late -> runtime.system.startOn(late.ref(), revision("v2"), swap));
        runtime.settle();

        assertEquals(List.of("v2 preStart", "v2 imports 140"), lifecycle);
        assertEquals(140L, get.getNow(null));
    }

    /**
     * A Detach that reaches the cell before its Create (the registry scan met the cell ActorSystem.spawn
     * had just registered: its source's attach runs the scan at that instant) joins it fresh too: on v2
     * it reads the store.
     */
    @Test
    void anActorDetachedBeforeItsCreateStartsFromItsStoredState() throws Exception {
        SwapBarrier[] detached = new SwapBarrier[1];
        FactorySource v1 = new FactorySource() {
            private final ActorFactory factory = () -> new Counter("v1");

            @Override
            public ActorFactory factory() {
                return factory;
            }

            @Override
            public String origin() {
                return ORIGIN;
            }

            @Override
            public void attach(ActorRef actor) {
                detached[0] = runtime.system.detachAll(swap, List.of());
            }
        };
        ActorRef alpha = runtime.system.spawn(v1, ActorOptions.defaults().withName("counter"), "alpha");
        settled(detached[0]);
        assertTrue(lifecycle.isEmpty(), "the v1 instance never started: " + lifecycle);
        CompletableFuture<Object> get = ask(alpha, "get");

        completeOnV2(alpha);

        assertEquals(List.of("v2 preStart", "v2 imports 140"), lifecycle);
        assertEquals(140L, get.getNow(null));
        ask(alpha, 2L);
        assertEquals(142L, stored());
    }

    /**
     * The first start of alpha's counter could not read the store (not open yet, as right after a
     * restart) and the swap took the failed cell over before its restart: what v1's instance exported
     * (0) is not alpha's total, so the v2 instance imports what the store holds.
     */
    @Test
    void anActorWhoseStartCouldNotReadTheStoreTakesTheStoredStateOnTheNextRevision() throws Exception {
        store.failingReads = 1;
        ActorRef alpha = spawnAlpha();
        settled(runtime.system.detachAll(swap, List.of())); // the Create fails, then the Detach takes it over
        assertEquals(List.of("v1 preStart"), lifecycle, "v1 started and could not read its total");
        CompletableFuture<Object> get = ask(alpha, "get");

        completeOnV2(alpha);

        assertEquals(List.of("v1 preStart", "v2 imports 140"), lifecycle);
        assertEquals(140L, get.getNow(null), "v2 imported the stored total, not the exported 0");
        ask(alpha, 1L);
        assertEquals(141L, stored());
    }

    /**
     * As above, but the store still cannot be read when v2 takes over: the v2 instance writes nothing
     * (its first turn fails as not durable) and its restart reads the store once it can.
     */
    @Test
    void anInstanceThatNeverReadTheStoreWritesNothingAndItsRestartReadsIt() throws Exception {
        store.failingReads = 2;
        ActorRef alpha = spawnAlpha();
        settled(runtime.system.detachAll(swap, List.of()));
        completeOnV2(alpha);

        CompletableFuture<Object> refused = ask(alpha, 1L);
        assertTrue(refused.isCompletedExceptionally(), "its state never came from the store: " + refused);
        assertEquals(0, store.writes, "nothing overwrote the stored total");
        CompletableFuture<Object> get = ask(alpha, "get");
        assertEquals(140L, get.getNow(null), "the restart read the stored total; " + lifecycle);
        ask(alpha, 1L);
        assertEquals(141L, stored());
    }

    /**
     * A fresh actor whose v2 instance was prepared and that stops before the commit (its tenant is
     * removed meanwhile) writes nothing on its stop: that instance never read the store.
     */
    @Test
    void aFreshActorStoppedBetweenPrepareAndCommitWritesNothing() throws Exception {
        settled(runtime.system.detachAll(swap, List.of()));
        ActorRef alpha = spawnAlpha();
        settled(runtime.system.detachAll(swap, List.of()));
        settled(runtime.system.prepare(Map.of(alpha, revision("v2"))));
        runtime.system.stop(alpha, StopReason.NORMAL);
        runtime.settle();

        assertTrue(alpha.isStopped());
        assertEquals(0, store.writes, "the stop wrote a state the store never saw");
        assertEquals(140L, stored());
    }

    /** A swap refused before the old revision went away: the old instance resumes and goes on writing. */
    @Test
    void aDurableActorResumedAfterARefusedSwapGoesOnWriting() throws Exception {
        ActorRef alpha = spawnAlpha();
        ask(alpha, 1L);
        assertEquals(141L, stored());
        settled(runtime.system.detachAll(swap, List.of()));
        runtime.system.closeSwap(swap);
        runtime.system.reattach(List.of(alpha), swap);
        runtime.settle();

        CompletableFuture<Object> add = ask(alpha, 1L);
        assertEquals(142L, stored(), lifecycle.toString());
        assertEquals(142L, add.getNow(null));
    }
}
