package io.troupe.host.actor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import io.troupe.api.Actor;
import io.troupe.api.ActorContext;
import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.api.ChildFailed;
import io.troupe.api.ChildStopped;
import io.troupe.api.DeadLetter;
import io.troupe.api.Directive;
import io.troupe.api.SupervisorStrategy;

class SupervisionTest {

    private final TestRuntime runtime = new TestRuntime();
    private final List<String> events = new ArrayList<>();

    /** Counts messages; throws on "fail"; records lifecycle hooks in {@code events}. */
    private final class Counter implements Actor {
        private final int instance;
        private int count;

        Counter(int instance) {
            this.instance = instance;
        }

        @Override
        public void preStart(ActorContext ctx) {
            events.add("preStart#" + instance);
        }

        @Override
        public void receive(ActorContext ctx, Object message) {
            if ("fail".equals(message)) {
                throw new IllegalStateException("told to fail");
            }
            if ("count?".equals(message)) {
                ctx.reply(count);
                return;
            }
            count++;
        }

        @Override
        public void preRestart(ActorContext ctx, Throwable cause, Object message) {
            events.add("preRestart#" + instance + ":" + message);
        }

        @Override
        public void postStop(ActorContext ctx) {
            events.add("postStop#" + instance);
        }
    }

    /** A parent that spawns one {@link Counter} child and records what it learns about it. */
    private final class Parent implements Actor {
        private final SupervisorStrategy strategy;
        private final AtomicReference<ActorRef> child;
        private int instances;

        Parent(SupervisorStrategy strategy, AtomicReference<ActorRef> child) {
            this.strategy = strategy;
            this.child = child;
        }

        @Override
        public void preStart(ActorContext ctx) {
            child.set(ctx.spawn(() -> new Counter(++instances)));
        }

        @Override
        public void receive(ActorContext ctx, Object message) {
            if (message instanceof ChildFailed failed) {
                events.add("childFailed:" + failed.directive());
            } else if (message instanceof ChildStopped stopped) {
                events.add("childStopped:" + stopped.reason());
            } else {
                ctx.forward(child.get());
            }
        }

        @Override
        public SupervisorStrategy supervisorStrategy() {
            return strategy;
        }
    }

    private ActorRef parentWith(SupervisorStrategy strategy, AtomicReference<ActorRef> child) {
        ActorRef parent = runtime.system.spawn(() -> new Parent(strategy, child), ActorOptions.defaults());
        runtime.settle();
        return parent;
    }

    private Object ask(ActorRef actor, Object message) {
        var reply = actor.ask(message, Duration.ofSeconds(1)).toCompletableFuture();
        runtime.settle();
        assertTrue(reply.isDone(), "no reply to " + message);
        return reply.join();
    }

    @Test
    void restartReplacesTheInstanceAndKeepsTheMailbox() {
        AtomicReference<ActorRef> child = new AtomicReference<>();
        parentWith(SupervisorStrategy.defaultStrategy(), child);
        ActorRef counter = child.get();
        counter.tell("+");
        counter.tell("fail");
        counter.tell("+");
        counter.tell("+");
        runtime.settle();
        assertEquals(2, ask(counter, "count?"), "the fresh instance counts the messages queued after the failure");
        // the parent hears of the decision on its own turn, before the child's restart runs on the child's
        assertEquals(List.of("preStart#1", "childFailed:RESTART", "preRestart#1:fail", "preStart#2"), events);
        assertFalse(counter.isStopped());
    }

    @Test
    void theFailingMessageGoesToDeadLettersWithItsCause() {
        AtomicReference<ActorRef> child = new AtomicReference<>();
        parentWith(SupervisorStrategy.defaultStrategy(), child);
        child.get().tell("fail");
        runtime.settle();
        DeadLetter letter = runtime.deadLetters.get(0);
        assertEquals("fail", letter.message());
        assertEquals("receive failed", letter.reason());
        assertInstanceOf(IllegalStateException.class, letter.cause());
        assertEquals(child.get(), letter.recipient());
    }

    @Test
    void resumeKeepsTheInstanceAndItsState() {
        AtomicReference<ActorRef> child = new AtomicReference<>();
        parentWith(SupervisorStrategy.always(Directive.RESUME), child);
        child.get().tell("+");
        child.get().tell("fail");
        child.get().tell("+");
        runtime.settle();
        assertEquals(2, ask(child.get(), "count?"));
        assertEquals(List.of("preStart#1", "childFailed:RESUME"), events);
    }

    @Test
    void stopStopsTheChildAndTellsTheParent() {
        AtomicReference<ActorRef> child = new AtomicReference<>();
        parentWith(SupervisorStrategy.always(Directive.STOP), child);
        child.get().tell("fail");
        child.get().tell("+");
        runtime.settle();
        assertTrue(child.get().isStopped());
        assertEquals("preStart#1", events.get(0));
        assertEquals("childFailed:STOP", events.get(1));
        assertEquals("postStop#1", events.get(2));
        assertTrue(events.get(3).startsWith("childStopped:failed: java.lang.IllegalStateException"), events.get(3));
    }

    @Test
    void restartsAtMostThreeTimesWithinFiveSecondsThenEscalates() {
        AtomicReference<ActorRef> child = new AtomicReference<>();
        ActorRef parent = parentWith(SupervisorStrategy.defaultStrategy(), child);
        ActorRef firstChild = child.get();
        for (int i = 0; i < 3; i++) {
            firstChild.tell("fail");
            runtime.settle();
            runtime.scheduler.advance(Duration.ofSeconds(1));
        }
        assertFalse(firstChild.isStopped());
        assertEquals(3, events.stream().filter("childFailed:RESTART"::equals).count());
        // The fourth failure within 5 s escalates: the parent fails; the guardian restarts it,
        // which stops its children and spawns a new one.
        firstChild.tell("fail");
        runtime.settle();
        assertTrue(firstChild.isStopped(), "the old child stops when its parent restarts");
        assertFalse(parent.isStopped());
        assertNotNull(child.get());
        assertTrue(child.get() != firstChild, "the restarted parent spawned a new child");
        assertEquals(0, ask(child.get(), "count?"));
    }

    @Test
    void restartsOutsideTheWindowDoNotCountTowardsTheLimit() {
        AtomicReference<ActorRef> child = new AtomicReference<>();
        parentWith(SupervisorStrategy.defaultStrategy(), child);
        ActorRef counter = child.get();
        for (int i = 0; i < 10; i++) {
            counter.tell("fail");
            runtime.settle();
            runtime.scheduler.advance(Duration.ofSeconds(2));
        }
        assertSame(counter, child.get());
        assertFalse(counter.isStopped());
        assertEquals(10, events.stream().filter("childFailed:RESTART"::equals).count());
    }

    @Test
    void aTopLevelActorThatKeepsFailingIsStoppedByTheGuardian() {
        ActorRef failing = runtime.system.spawn(() -> (ctx, message) -> {
            throw new IllegalStateException("always");
        }, ActorOptions.defaults());
        for (int i = 0; i < 4; i++) {
            failing.tell("x" + i);
            runtime.settle();
        }
        assertTrue(failing.isStopped());
        assertTrue(runtime.system.lookup(failing.id()).isEmpty());
    }

    @Test
    void aFailingPreStartIsSupervisedLikeAFailingReceive() {
        List<Integer> starts = new ArrayList<>();
        ActorRef actor = runtime.system.spawn(() -> new Actor() {
            @Override
            public void preStart(ActorContext ctx) {
                starts.add(starts.size());
                if (starts.size() == 1) {
                    throw new IllegalStateException("first start fails");
                }
            }

            @Override
            public void receive(ActorContext ctx, Object message) {
                ctx.reply("alive");
            }
        }, ActorOptions.defaults());
        runtime.settle();
        assertEquals(List.of(0, 1), starts);
        assertEquals("alive", ask(actor, "?"));
    }

    @Test
    void escalateFailsTheParentWhoseParentDecides() {
        AtomicReference<ActorRef> child = new AtomicReference<>();
        ActorRef parent = parentWith(SupervisorStrategy.always(Directive.ESCALATE), child);
        ActorRef firstChild = child.get();
        firstChild.tell("fail");
        runtime.settle();
        // the guardian restarts the parent (default strategy): its old child stops, a new one starts
        assertTrue(firstChild.isStopped());
        assertFalse(parent.isStopped());
        assertFalse(child.get().isStopped());
        assertTrue(firstChild != child.get());
    }
}
