package io.troupe.host.actor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import io.troupe.api.Actor;
import io.troupe.api.ActorContext;
import io.troupe.api.ActorFactory;
import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;

/**
 * The swap steps of cells racing with their own start, with the spawns of a fresh actor that a
 * rollback aborts, and with a child that stops as its parent detaches.
 *
 * <p><b>Threading:</b> the test thread only (manual dispatcher).
 */
class SwapRacesTest {

    private final TestRuntime runtime = new TestRuntime();
    private final List<String> log = new ArrayList<>();
    private final CodeSwap swap = new CodeSwap(SwapRacesTest.class.getClassLoader());

    /** Replies with its revision, its child count and the number of messages it saw. */
    private final class Node implements Actor {
        private final String revision;
        private final boolean spawnChild;
        private int seen;

        Node(String revision, boolean spawnChild) {
            this.revision = revision;
            this.spawnChild = spawnChild;
        }

        @Override
        public void preStart(ActorContext ctx) {
            log.add(revision + " preStart");
            if (spawnChild) {
                ctx.spawn(() -> new Node(revision, false));
            }
        }

        @Override
        public void receive(ActorContext ctx, Object message) {
            if ("stop".equals(message)) {
                ctx.stop();
                return;
            }
            seen++;
            ctx.reply(revision + ":" + ctx.children().size() + " children:" + seen + " seen");
        }

        @Override
        public Object exportState(ActorContext ctx) {
            return seen;
        }

        @Override
        public void importState(ActorContext ctx, Object state) {
            log.add(revision + " imports " + state);
            if (revision.startsWith("broken")) {
                throw new IllegalStateException(revision + " cannot import");
            }
            seen = state == null ? 0 : (Integer) state;
        }
    }

    private FactorySource source(String revision, boolean spawnChild) {
        return FactorySource.of(() -> new Node(revision, spawnChild), "handler:node");
    }

    /**
     * A source whose {@code attach}, which newCell calls after the registry has the cell and before
     * the cell starts, runs the deployer's detachAll: the scan meets the cell at that instant.
     */
    private FactorySource detachingOnAttach(ActorFactory factory, SwapBarrier[] barrier) {
        return new FactorySource() {
            @Override
            public ActorFactory factory() {
                return factory;
            }

            @Override
            public String origin() {
                return "handler:node";
            }

            @Override
            public void attach(ActorRef actor) {
                barrier[0] = runtime.system.detachAll(swap, List.of());
            }
        };
    }

    private CompletableFuture<Object> ask(ActorRef actor, Object message) {
        CompletableFuture<Object> reply = actor.ask(message, Duration.ofSeconds(5)).toCompletableFuture();
        runtime.settle();
        return reply;
    }

    /**
     * A Detach that reaches a cell before its Create (the registry scan of detachAll sees a cell that
     * ActorSystem.spawn registered but has not started yet) joins the swap as a fresh actor: refused,
     * the swap lets it start on the old revision with preStart.
     */
    @Test
    void aCellDetachedBeforeItsCreateStartsWhenTheSwapIsRefused() throws Exception {
        SwapBarrier[] barrier = new SwapBarrier[1];
        ActorRef actor = runtime.system.spawn(detachingOnAttach(() -> new Node("v1", false), barrier),
                ActorOptions.defaults(), "t");
        runtime.settle();
        assertEquals(List.of(), barrier[0].await(Duration.ZERO));
        runtime.system.reattach(swap.detached().stream().map(DetachedActor::ref).toList(), swap);
        runtime.settle();

        CompletableFuture<Object> reply = ask(actor, "x");
        assertTrue(reply.isDone(), "the actor never started: it stays detached after the refusal; " + log);
        assertEquals(List.of("v1 preStart"), log);
    }

    /** The same race, swap completed: the next revision's instance gets preStart, not importState(null). */
    @Test
    void aCellDetachedBeforeItsCreateGetsPreStartOnTheNextRevision() throws Exception {
        SwapBarrier[] barrier = new SwapBarrier[1];
        ActorRef actor = runtime.system.spawn(detachingOnAttach(() -> new Node("v1", true), barrier),
                ActorOptions.defaults(), "t");
        runtime.settle();
        assertEquals(List.of(), barrier[0].await(Duration.ZERO));
        SwapBarrier prepared = runtime.system.prepare(Map.of(actor, source("v2", true)));
        runtime.settle();
        assertEquals(List.of(), prepared.await(Duration.ZERO));
        runtime.system.commit(List.of(actor));
        runtime.settle();
        assertEquals("v2:1 children:1 seen", ask(actor, "x").join(), "preStart spawned its child; " + log);
    }

    /**
     * An actor spawned during the swap gets preStart only at the commit: when a revision is aborted
     * (another actor's import failed), nothing of it was started, and the rollback's preStart spawns
     * the one child.
     */
    @Test
    void aFreshActorAbortedAndPreparedAgainHasOneChildNotTwo() throws Exception {
        ActorRef fresh = runtime.system.spawnDetached(source("v1", true), ActorOptions.defaults(), "t");
        ActorRef other = runtime.system.spawn(source("v1", false), ActorOptions.defaults(), "t");
        runtime.settle();
        SwapBarrier detached = runtime.system.detachAll(swap, List.of());
        runtime.settle();
        assertEquals(List.of(), detached.await(Duration.ZERO));

        SwapBarrier broken = runtime.system.prepare(Map.of(fresh, source("v2", true),
                other, source("broken-v2", false)));
        runtime.settle();
        assertEquals(1, broken.await(Duration.ZERO).size());
        runtime.system.abort(List.of(fresh, other));
        runtime.settle();

        SwapBarrier rollback = runtime.system.prepare(Map.of(fresh, source("v1-again", true),
                other, source("v1-again", false)));
        runtime.settle();
        assertEquals(List.of(), rollback.await(Duration.ZERO));
        runtime.system.commit(List.of(fresh, other));
        runtime.settle();
        assertEquals("v1-again:1 children:1 seen", ask(fresh, "x").join(), log.toString());
    }

    /**
     * A child that stopped just before its parent detached is still listed by the parent (its
     * ChildTerminated is queued behind the Detach): the Detach forwarded to it is answered all the same.
     */
    @Test
    void aChildThatJustStoppedDoesNotHoldTheDetachBarrier() throws Exception {
        ClassLoader plugin = new ClassLoader(null) { };
        CodeSwap pluginSwap = new CodeSwap(plugin);
        FactorySource parentSource = new FactorySource() {
            private final ActorFactory factory = () -> new Node("v1", true);

            @Override
            public ActorFactory factory() {
                return factory;
            }

            @Override
            public String origin() {
                return "handler:node";
            }

            @Override
            public ClassLoader codeLoader() {
                return plugin; // the parent is the plugin's; its child (a lambda of this test) is not
            }
        };
        ActorRef parent = runtime.system.spawn(parentSource, ActorOptions.defaults(), "t");
        runtime.settle();
        ActorRef child = runtime.system.snapshot().stream().filter(info -> info.parentId() == parent.id())
                .map(info -> runtime.system.lookup(info.id()).orElseThrow()).findFirst().orElseThrow();
        child.tell("stop");                                                       // the child's turn runs first;
        SwapBarrier detached = runtime.system.detachAll(pluginSwap, List.of());  // its ChildTerminated queues
        runtime.settle();                                                         // behind the parent's Detach
        assertTrue(child.isStopped());
        assertEquals(List.of(), detached.await(Duration.ZERO));
    }
}
