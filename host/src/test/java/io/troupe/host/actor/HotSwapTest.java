package io.troupe.host.actor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import io.troupe.api.Actor;
import io.troupe.api.ActorContext;
import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.api.ErrorCode;
import io.troupe.api.TroupeException;

class HotSwapTest {

    private final TestRuntime runtime = new TestRuntime();
    private final List<String> log = new ArrayList<>();

    /** A counter of one "revision": it tags its replies and logs its lifecycle. */
    private final class Counter implements Actor {
        private final String revision;
        private final boolean failImport;
        private long total;

        Counter(String revision, boolean failImport) {
            this.revision = revision;
            this.failImport = failImport;
        }

        @Override
        public void receive(ActorContext ctx, Object message) {
            if ("get".equals(message)) {
                ctx.reply(revision + ":" + total);
            } else {
                total += (Integer) message;
            }
        }

        @Override
        public Object exportState(ActorContext ctx) {
            log.add(revision + " exports " + total);
            return total;
        }

        @Override
        public void importState(ActorContext ctx, Object state) {
            if (failImport) {
                throw new IllegalArgumentException(revision + " cannot read " + state);
            }
            total = (Long) state;
            log.add(revision + " imports " + total);
        }

        @Override
        public void preStart(ActorContext ctx) {
            log.add(revision + " preStart");
        }

        @Override
        public void postStop(ActorContext ctx) {
            log.add(revision + " postStop");
        }
    }

    /** A parent that spawns one child, a counter of its own revision, in preStart and forwards adds to it. */
    private final class Parent implements Actor {
        private final String revision;
        private int forwarded;

        Parent(String revision) {
            this.revision = revision;
        }

        @Override
        public void preStart(ActorContext ctx) {
            log.add(revision + " parent preStart");
            ctx.spawn(() -> new Counter(revision, false));
        }

        @Override
        public void receive(ActorContext ctx, Object message) {
            if ("children".equals(message)) {
                ctx.reply(revision + ":" + ctx.children().size() + " children, " + forwarded + " forwarded");
            } else {
                forwarded++;
                ctx.children().iterator().next().tell(message, ctx.sender());
            }
        }

        @Override
        public Object exportState(ActorContext ctx) {
            return forwarded;
        }

        @Override
        public void importState(ActorContext ctx, Object state) {
            log.add(revision + " parent imports " + state);
            forwarded = (Integer) state;
        }
    }

    /** A message class of the "plugin": the test's own class loader loaded it. */
    private record Tick() { }

    /** The swap of every actor whose code the test's class loader loaded: all of them here. */
    private final CodeSwap swap = new CodeSwap(HotSwapTest.class.getClassLoader());

    private SwapBarrier detach(ActorRef... actors) {
        SwapBarrier barrier = runtime.system.detachAll(swap, List.of(actors));
        runtime.settle();
        return barrier;
    }

    private FactorySource revision(String name, boolean failImport) {
        return FactorySource.of(() -> new Counter(name, failImport), "handler:counter");
    }

    private Object ask(ActorRef actor, Object message) {
        CompletableFuture<Object> reply = actor.ask(message, Duration.ofSeconds(5)).toCompletableFuture();
        runtime.settle();
        assertTrue(reply.isDone(), "no reply");
        return reply.join();
    }

    @Test
    void aSwappedActorKeepsItsStateIdAndQueuedMessagesInOrder() throws Exception {
        ActorRef counter = runtime.system.spawn(revision("v1", false), ActorOptions.defaults(), "t");
        counter.tell(5);
        runtime.settle();

        SwapBarrier detached = detach(counter);
        assertEquals(List.of(), detached.await(Duration.ZERO));
        assertEquals(List.of(counter), swap.detached().stream().map(DetachedActor::ref).toList());
        // while detached, messages queue and asks wait
        counter.tell(1);
        counter.tell(2);
        CompletableFuture<Object> inFlight = counter.ask("get", Duration.ofSeconds(30)).toCompletableFuture();
        runtime.settle();
        assertFalse(inFlight.isDone());

        SwapBarrier prepared = runtime.system.prepare(Map.of(counter, revision("v2", false)));
        runtime.settle();
        assertEquals(List.of(), prepared.await(Duration.ZERO));
        assertFalse(inFlight.isDone(), "nothing is processed before the commit");
        runtime.system.commit(List.of(counter));
        runtime.settle();

        assertEquals("v2:8", inFlight.join(), "the queued adds ran on the new instance, in order, then the ask");
        assertEquals(List.of("v1 preStart", "v1 exports 5", "v2 imports 5"), log,
                "the old instance is not stopped and the new one not started: it takes over");
        assertEquals(1, runtime.system.size());
        assertTrue(runtime.system.lookup(counter.id()).isPresent());
    }

    @Test
    void aSwapMovesTheChildrenWithTheirStateAndSpawnsNoSecondChild() throws Exception {
        ActorRef parent = runtime.system.spawn(FactorySource.of(() -> new Parent("v1"), "handler:parent"),
                ActorOptions.defaults(), "t");
        parent.tell(3);
        parent.tell(4);
        runtime.settle();
        assertEquals("v1:1 children, 2 forwarded", ask(parent, "children"));
        ActorRef child = runtime.system.snapshot().stream().filter(info -> info.parentId() == parent.id())
                .map(info -> runtime.system.lookup(info.id()).orElseThrow()).findFirst().orElseThrow();
        String childName = child.name();
        String childOrigin = runtime.system.snapshot().stream().filter(info -> info.id() == child.id())
                .findFirst().orElseThrow().origin();

        assertEquals(List.of(), detach(parent).await(Duration.ZERO));
        assertEquals(List.of(parent, child), swap.detached().stream().map(DetachedActor::ref).toList(),
                "the child joined the swap with its parent");
        parent.tell(10);
        runtime.settle();
        Map<ActorRef, FactorySource> next = Map.of(parent, FactorySource.of(() -> new Parent("v2"), "handler:parent"),
                child, FactorySource.of(() -> new Counter("v2", false), childOrigin));
        SwapBarrier prepared = runtime.system.prepare(next);
        runtime.settle();
        assertEquals(List.of(), prepared.await(Duration.ZERO));
        runtime.system.commit(next.keySet());
        runtime.settle();

        assertEquals("v2:1 children, 3 forwarded", ask(parent, "children"), "the same child, no second one");
        assertEquals("v2:17", ask(child, "get"), "the child kept its total and got the add queued meanwhile");
        assertEquals(childName, child.name(), "its name did not change");
        assertEquals(2, runtime.system.size());
        assertFalse(log.contains("v2 parent preStart"), log.toString());
        assertTrue(log.contains("v2 parent imports 2"), log.toString());
    }

    @Test
    void anActorWhoseStateCannotCrossRefusesTheSwapAndEveryActorResumesUnchanged() throws Exception {
        ActorRef counter = runtime.system.spawn(revision("v1", false), ActorOptions.defaults(), "t");
        Actor stubborn = new Actor() {
            private int seen;

            @Override
            public void receive(ActorContext ctx, Object message) {
                ctx.reply("seen " + ++seen);
            }

            @Override
            public Object exportState(ActorContext ctx) {
                return new Tick(); // a class of the plugin itself
            }
        };
        ActorRef other = runtime.system.spawn(FactorySource.of(() -> stubborn, "handler:stubborn"),
                ActorOptions.defaults(), "t");
        counter.tell(5);
        assertEquals("seen 1", ask(other, "x"));

        List<String> failures = detach(counter, other).await(Duration.ZERO);
        assertEquals(1, failures.size(), failures.toString());
        assertTrue(failures.get(0).contains("handler:stubborn") && failures.get(0).contains("Tick"),
                failures.get(0));
        counter.tell(1);
        runtime.system.reattach(swap.detached().stream().map(DetachedActor::ref).toList(), swap);
        runtime.settle();

        assertEquals("v1:6", ask(counter, "get"), "the old instance resumed with its state and the queued add");
        assertEquals("seen 2", ask(other, "x"), "the same instance");
        assertEquals(List.of("v1 preStart", "v1 exports 5"), log, "nothing was imported or started again");
    }

    @Test
    void aTimerCarryingAPluginClassRefusesTheSwap() throws Exception {
        ActorRef ticking = runtime.system.spawn(FactorySource.of(() -> new Actor() {
            @Override
            public void preStart(ActorContext ctx) {
                ctx.timers().scheduleAtFixedRate("tick", new Tick(), Duration.ofSeconds(1), Duration.ofSeconds(1));
            }

            @Override
            public void receive(ActorContext ctx, Object message) {
            }
        }, "handler:ticking"), ActorOptions.defaults(), "t");
        runtime.settle();
        List<String> failures = detach(ticking).await(Duration.ZERO);
        assertEquals(1, failures.size(), failures.toString());
        assertTrue(failures.get(0).contains("timer 'tick'") && failures.get(0).contains("Tick"), failures.get(0));
    }

    @Test
    void aFailedImportIsAbortedAndTheOldRevisionTakesOverWithTheOriginalState() throws Exception {
        ActorRef counter = runtime.system.spawn(revision("v1", false), ActorOptions.defaults(), "t");
        counter.tell(7);
        runtime.settle();
        detach(counter);

        SwapBarrier broken = runtime.system.prepare(Map.of(counter, revision("v2", true)));
        runtime.settle();
        List<String> failures = broken.await(Duration.ZERO);
        assertEquals(1, failures.size());
        assertTrue(failures.get(0).contains("v2 cannot read 7"), failures.get(0));
        runtime.system.abort(List.of(counter));
        counter.tell(1);
        runtime.settle();

        SwapBarrier rollback = runtime.system.prepare(Map.of(counter, revision("v1-again", false)));
        runtime.settle();
        assertEquals(List.of(), rollback.await(Duration.ZERO));
        runtime.system.commit(List.of(counter));
        assertEquals("v1-again:8", ask(counter, "get"));
    }

    @Test
    void aDetachedActorThatIsStoppedFailsItsQueuedRequestsWithTheReason() throws Exception {
        ActorRef counter = runtime.system.spawn(revision("v1", false), ActorOptions.defaults(), "t");
        runtime.settle();
        detach(counter);
        CompletableFuture<Object> queued = counter.ask("get", Duration.ofSeconds(30)).toCompletableFuture();
        runtime.system.stop(counter, new StopReason("code went away", ErrorCode.NO_HANDLER, null));
        runtime.settle();
        assertEquals(ErrorCode.NO_HANDLER, MessagingTest.causeOf(queued, TroupeException.class).code());
        assertTrue(log.contains("v1 postStop"), "the instance that exported its state, the last to run, stops: " + log);
    }

    @Test
    void anActorThatStopsWhileDetachedDoesNotFailTheSwap() throws Exception {
        ActorRef staying = runtime.system.spawn(revision("v1", false), ActorOptions.defaults(), "t");
        ActorRef leaving = runtime.system.spawn(revision("v1", false), ActorOptions.defaults(), "t");
        staying.tell(3);
        runtime.settle();
        detach(staying, leaving);
        runtime.system.stop(leaving, StopReason.NORMAL);
        runtime.settle();
        SwapBarrier prepared = runtime.system.prepare(Map.of(staying, revision("v2", false),
                leaving, revision("v2", false)));
        runtime.settle();
        assertEquals(List.of(), prepared.await(Duration.ZERO));
        runtime.system.commit(List.of(staying, leaving));
        assertEquals("v2:3", ask(staying, "get"));
        assertTrue(leaving.isStopped());
    }

    @Test
    void stateHoldingAPluginClassIsRefused() {
        record PluginState(long total) { }
        Object portable = PortableState.require(Map.of("total", 3L, "list", List.of(1, 2)),
                HotSwapTest.class.getClassLoader());
        assertEquals(Map.of("total", 3L, "list", List.of(1, 2)), portable);
        IllegalArgumentException refused = org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class,
                () -> PortableState.require(Map.of("nested", List.of(new PluginState(1))),
                        HotSwapTest.class.getClassLoader()));
        assertTrue(refused.getMessage().contains("PluginState"), refused.getMessage());
    }

    @Test
    void anActorSpawnedDuringTheSwapStartsWithPreStartOnTheNextRevision() throws Exception {
        ActorRef late = runtime.system.spawnDetached(revision("v1", false), ActorOptions.defaults(), "t");
        late.tell(4);
        runtime.settle();
        assertEquals(List.of(), detach().await(Duration.ZERO));
        DetachedActor joined = swap.detached().get(0);
        assertEquals(late, joined.ref());
        assertTrue(joined.fresh());
        runtime.system.prepare(Map.of(late, revision("v2", false)));
        runtime.settle();
        runtime.system.commit(List.of(late));
        assertEquals("v2:4", ask(late, "get"));
        assertEquals(List.of("v2 preStart"), log);
    }

    @Test
    void anActorSpawnedDuringARefusedSwapStartsOnTheOldRevision() throws Exception {
        ActorRef late = runtime.system.spawnDetached(revision("v1", false), ActorOptions.defaults(), "t");
        late.tell(4);
        detach();
        runtime.system.reattach(List.of(late), swap);
        runtime.settle();
        assertEquals("v1:4", ask(late, "get"));
        assertEquals(List.of("v1 preStart"), log);
    }
}
