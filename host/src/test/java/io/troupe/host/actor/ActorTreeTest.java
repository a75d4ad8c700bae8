package io.troupe.host.actor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import io.troupe.api.Actor;
import io.troupe.api.ActorContext;
import io.troupe.api.ActorFactory;
import io.troupe.api.ActorInfo;
import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.api.ChildStopped;
import io.troupe.api.ErrorCode;
import io.troupe.api.TroupeException;

class ActorTreeTest {

    private final TestRuntime runtime = new TestRuntime();
    private final List<String> events = new ArrayList<>();

    /** Spawns {@code depth} levels of {@code fanOut} children, named by path, recording postStop. */
    private final class Node implements Actor {
        private final String path;
        private final int depth;
        private final int fanOut;

        Node(String path, int depth, int fanOut) {
            this.path = path;
            this.depth = depth;
            this.fanOut = fanOut;
        }

        @Override
        public void preStart(ActorContext ctx) {
            for (int i = 0; i < (depth > 0 ? fanOut : 0); i++) {
                String childPath = path + "/" + i;
                ctx.spawn(() -> new Node(childPath, depth - 1, fanOut), ActorOptions.defaults().withName(childPath));
            }
        }

        @Override
        public void receive(ActorContext ctx, Object message) {
            if (message instanceof ChildStopped stopped) {
                events.add(path + " saw " + stopped.child().name() + " stop");
            }
        }

        @Override
        public void postStop(ActorContext ctx) {
            events.add("postStop " + path);
        }
    }

    @Test
    void stoppingAnActorStopsItsChildrenFirst() {
        ActorRef root = runtime.system.spawn(() -> new Node("r", 2, 2), ActorOptions.defaults().withName("r"));
        runtime.settle();
        assertEquals(7, runtime.system.size());
        runtime.system.stop(root, StopReason.NORMAL);
        runtime.settle();
        List<String> stops = events.stream().filter(e -> e.startsWith("postStop")).toList();
        assertEquals(7, stops.size());
        assertEquals("postStop r", stops.get(6), "the parent stops last");
        assertTrue(stops.indexOf("postStop r/0/0") < stops.indexOf("postStop r/0"));
        assertTrue(stops.indexOf("postStop r/1/1") < stops.indexOf("postStop r/1"));
        assertEquals(0, runtime.system.size(), "stopped actors are not retained");
        assertTrue(root.isStopped());
    }

    @Test
    void aParentLearnsWhenAChildStops() {
        AtomicReference<ActorRef> child = new AtomicReference<>();
        runtime.system.spawn(() -> new Actor() {
            @Override
            public void preStart(ActorContext ctx) {
                child.set(ctx.spawn(() -> (c, m) -> c.stop(), ActorOptions.defaults().withName("worker")));
            }

            @Override
            public void receive(ActorContext ctx, Object message) {
                if (message instanceof ChildStopped stopped) {
                    events.add(stopped.child().name() + ":" + stopped.reason() + ":" + stopped.failed());
                    events.add("children left " + ctx.children().size());
                }
            }
        }, ActorOptions.defaults());
        runtime.settle();
        child.get().tell("done");
        runtime.settle();
        assertEquals(List.of("worker:stopped:false", "children left 0"), events);
    }

    @Test
    void childrenSendReceiptsToTheirParent() throws Exception {
        ActorRef parent = runtime.system.spawn(() -> new Actor() {
            private ActorRef requester;
            private int pending;
            private int sum;

            @Override
            public void receive(ActorContext ctx, Object message) {
                if (message instanceof int[] work) {
                    requester = ctx.sender();
                    pending = work.length;
                    for (int value : work) {
                        ActorRef child = ctx.spawn(() -> (c, m) -> {
                            c.reply((Integer) m * 10);
                            c.stop();
                        });
                        child.tell(value, ctx.self());
                    }
                } else if (message instanceof Integer receipt) {
                    sum += receipt;
                    if (--pending == 0) {
                        requester.tell(sum, ctx.self());
                    }
                }
            }
        }, ActorOptions.defaults());
        CompletableFuture<Object> reply = parent.ask(new int[] {1, 2, 3, 4}, Duration.ofSeconds(1)).toCompletableFuture();
        runtime.settle();
        assertEquals(100, reply.getNow(null));
        assertEquals(1, runtime.system.size(), "the children stopped when done");
    }

    @Test
    void aChildsLastMessagesArriveBeforeTheNoticeThatItStopped() {
        List<Object> seen = new ArrayList<>();
        runtime.system.spawn(() -> new Actor() {
            @Override
            public void preStart(ActorContext ctx) {
                for (int i = 0; i < 3; i++) {
                    int n = i;
                    ActorRef child = ctx.spawn(() -> (c, m) -> {
                        c.parent().tell("receipt " + n, c.self());
                        c.stop();
                    });
                    child.tell("work");
                }
            }

            @Override
            public void receive(ActorContext ctx, Object message) {
                if (message instanceof ChildStopped stopped) {
                    seen.add("stopped, children left " + ctx.children().size());
                } else {
                    seen.add(message);
                }
            }
        }, ActorOptions.defaults());
        runtime.settle();
        assertEquals(6, seen.size());
        for (int i = 0; i < 3; i++) {
            int receipt = seen.indexOf("receipt " + i);
            assertTrue(receipt >= 0 && receipt < seen.size() - 1, seen.toString());
        }
        assertEquals("stopped, children left 0", seen.get(5));
        int stoppedNotices = (int) seen.stream().filter(s -> s.toString().startsWith("stopped")).count();
        assertEquals(3, stoppedNotices);
    }

    @Test
    void queuedAsksFailWithTheStopReasonsCode() {
        ActorRef actor = runtime.system.spawn(() -> (ctx, message) -> ctx.reply("never"), ActorOptions.defaults());
        runtime.settle();
        CompletableFuture<Object> queued = actor.ask("q", Duration.ofSeconds(5)).toCompletableFuture();
        runtime.system.stop(actor, new StopReason("handler went away", ErrorCode.NO_HANDLER, null));
        runtime.settle();
        assertEquals(ErrorCode.NO_HANDLER, MessagingTest.causeOf(queued, TroupeException.class).code());
    }

    @Test
    void messagesToAStoppedActorBecomeDeadLetters() {
        ActorRef actor = runtime.system.spawn(() -> (ctx, message) -> { }, ActorOptions.defaults());
        runtime.settle();
        runtime.system.stop(actor, StopReason.NORMAL);
        runtime.settle();
        actor.tell("late");
        assertEquals(1, runtime.deadLetters.size());
        assertEquals("late", runtime.deadLetters.get(0).message());
        assertTrue(runtime.deadLetters.get(0).reason().startsWith("actor stopped"));
    }

    @Test
    void aStoppedActorKeepsNoReferenceToItsInstance() {
        Object[] holder = new Object[1];
        WeakReference<Object> instance = spawnAndStopRemembering(holder);
        holder[0] = null;
        for (int i = 0; i < 20 && instance.get() != null; i++) {
            System.gc();
        }
        assertNull(instance.get());
    }

    @Test
    void aReferenceToAStoppedActorKeepsNoReferenceToItsFactory() {
        ActorRef[] kept = new ActorRef[1];
        WeakReference<ActorFactory> factory = spawnAndStop(kept);
        for (int i = 0; i < 20 && factory.get() != null; i++) {
            System.gc();
        }
        assertNull(factory.get(), "a stale reference would keep the factory's plugin reachable");
        assertTrue(kept[0].isStopped());
        assertTrue(kept[0].name().startsWith("factory-under-test-"), kept[0].name());
    }

    /** Spawns an actor from a factory object of its own, stops it, keeps only its reference. */
    private WeakReference<ActorFactory> spawnAndStop(ActorRef[] kept) {
        ActorFactory factory = new ActorFactory() { // a fresh object, as a plugin's factory would be
            @Override
            public Actor create() {
                return (ctx, message) -> { };
            }
        };
        kept[0] = runtime.system.spawn(FactorySource.of(factory, "factory-under-test"), ActorOptions.defaults(), "");
        runtime.settle();
        runtime.system.stop(kept[0], StopReason.NORMAL);
        runtime.settle();
        return new WeakReference<>(factory);
    }

    private WeakReference<Object> spawnAndStopRemembering(Object[] holder) {
        Actor actor = new Actor() { // a fresh object: a lambda without captures would be a cached constant
            @Override
            public void receive(ActorContext ctx, Object message) {
            }
        };
        holder[0] = actor;
        ActorRef ref = runtime.system.spawn(() -> actor, ActorOptions.defaults());
        runtime.settle();
        runtime.system.stop(ref, StopReason.NORMAL);
        runtime.settle();
        assertTrue(ref.isStopped());
        return new WeakReference<>(actor);
    }

    @Test
    void theSnapshotListsParentsBeforeChildrenWithMailboxDepths() {
        ActorRef root = runtime.system.spawn(() -> new Node("r", 1, 2), ActorOptions.defaults().withName("r"));
        runtime.settle();
        root.tell("queued");
        List<ActorInfo> actors = runtime.system.snapshot();
        assertEquals(3, actors.size());
        assertEquals("r", actors.get(0).name());
        assertEquals(1, actors.get(0).mailboxDepth());
        assertEquals(root.id(), actors.get(1).parentId());
        assertEquals(root.id(), actors.get(2).parentId());
    }

    @Test
    void shutdownStopsTheWholeTree() throws InterruptedException {
        runtime.system.spawn(() -> new Node("a", 2, 3), ActorOptions.defaults().withName("a"));
        runtime.system.spawn(() -> new Node("b", 1, 3), ActorOptions.defaults().withName("b"));
        runtime.settle();
        assertEquals(13 + 4, runtime.system.size());
        // the dispatcher is manual: run the turns first, then the latch is already released
        runtime.system.shutdown(Duration.ZERO);
        runtime.settle();
        assertTrue(runtime.system.shutdown(Duration.ZERO));
        assertEquals(0, runtime.system.size());
        assertFalse(events.isEmpty());
    }
}
