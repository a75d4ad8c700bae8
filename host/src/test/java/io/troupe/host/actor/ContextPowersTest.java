package io.troupe.host.actor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import io.troupe.api.AbstractActor;
import io.troupe.api.Actor;
import io.troupe.api.ActorContext;
import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.api.ErrorCode;
import io.troupe.api.Message;
import io.troupe.api.Receive;
import io.troupe.api.TenantPolicy;
import io.troupe.api.TroupeException;

/**
 * What an actor can do from a turn since 1.4 (stash, become, unhandled, spawn top-level, look up,
 * ask without blocking) and the typed receive, on a deterministic runtime.
 */
class ContextPowersTest {

    private final TestRuntime runtime = new TestRuntime();
    private final List<Object> got = new ArrayList<>();

    @Test
    void stashedMessagesComeBackInOrderBeforeWhatArrivedMeanwhile() {
        ActorRef actor = runtime.system.spawn(() -> new Actor() {
            boolean open;

            @Override
            public void receive(ActorContext ctx, Object message) {
                if ("open".equals(message)) {
                    open = true;
                    ctx.unstashAll();
                } else if (!open) {
                    ctx.stash();
                } else {
                    got.add(message);
                }
            }
        }, ActorOptions.defaults());
        actor.tell("a");
        actor.tell("b");
        actor.tell("open");
        actor.tell("c");
        runtime.settle();
        assertEquals(List.of("a", "b", "c"), got);
    }

    @Test
    void stashedMessagesOfAStoppedActorBecomeDeadLetters() {
        ActorRef actor = runtime.system.spawn(() -> (ctx, message) -> ctx.stash(), ActorOptions.defaults());
        actor.tell("kept");
        runtime.settle();
        runtime.system.stop(actor, StopReason.NORMAL);
        runtime.settle();
        assertEquals(1, runtime.deadLetters.size());
        assertEquals("kept", runtime.deadLetters.get(0).message());
    }

    @Test
    void becomeSwitchesTheBehaviourAndUnbecomeReturnsToReceive() {
        Receive shouting = Receive.match(String.class, (ctx, text) -> {
            if (text.equals("calm")) {
                ctx.unbecome();
            } else {
                got.add(text.toUpperCase());
            }
        }).build();
        ActorRef actor = runtime.system.spawn(() -> (ctx, message) -> {
            if ("shout".equals(message)) {
                ctx.become(shouting);
            } else {
                got.add(message);
            }
        }, ActorOptions.defaults());
        for (String message : List.of("a", "shout", "b", "calm", "c")) {
            actor.tell(message);
        }
        runtime.settle();
        assertEquals(List.of("a", "B", "c"), got);
    }

    @Test
    void theReceiveBuilderMatchesInOrderAndSendsTheRestToUnhandled() {
        ActorRef actor = runtime.system.spawn(() -> (ctx, message) -> Receive
                .matchMessage("greet", (c, m) -> got.add("hello " + m.text()))
                .match(Integer.class, n -> n > 10, (c, n) -> got.add("big " + n))
                .match(Integer.class, (c, n) -> got.add("small " + n))
                .matchEquals("ping", (c, m) -> c.reply("pong"))
                .build()
                .onMessage(ctx, message), ActorOptions.defaults().withName("typed"));
        actor.tell(Message.of("greet", "ada"));
        actor.tell(42);
        actor.tell(7);
        actor.tell(3.5);
        CompletableFuture<Object> pong = actor.ask("ping", Duration.ofSeconds(1)).toCompletableFuture();
        CompletableFuture<Object> odd = actor.ask(List.of(), Duration.ofSeconds(1)).toCompletableFuture();
        runtime.settle();
        assertEquals(List.of("hello ada", "big 42", "small 7"), got);
        assertEquals("pong", pong.getNow(null));
        assertEquals(ErrorCode.BAD_REQUEST, MessagingTest.causeOf(odd, TroupeException.class).code());
        assertEquals(2, runtime.deadLetters.size());
        assertEquals(3.5, runtime.deadLetters.get(0).message());
        assertEquals("unhandled", runtime.deadLetters.get(0).reason());
    }

    /** An actor written against AbstractActor: it knows itself outside a turn. */
    static final class Greeter extends AbstractActor {
        static volatile ActorRef boundTo;

        @Override
        protected Receive createReceive() {
            boundTo = self();
            return Receive.match(String.class, (ctx, name) -> ctx.reply("hi " + name)).build();
        }
    }

    @Test
    void anAbstractActorIsBoundToItsReferenceBeforeItStarts() {
        ActorRef greeter = runtime.system.spawn(Greeter::new, ActorOptions.defaults());
        CompletableFuture<Object> reply = greeter.ask("bob", Duration.ofSeconds(1)).toCompletableFuture();
        runtime.settle();
        assertEquals("hi bob", reply.getNow(null));
        assertEquals(greeter, Greeter.boundTo);
        assertTrue(greeter.name().startsWith("ContextPowersTest-"), greeter.name());
    }

    @Test
    void spawnTopLevelKeepsTheTenantAndLookupFindsByPathWithinIt() {
        runtime.system.configureTenant("acme", TenantPolicy.defaults());
        List<ActorRef> found = new ArrayList<>();
        ActorRef root = runtime.system.spawn(FactorySource.of(() -> new Actor() {
            @Override
            public void preStart(ActorContext ctx) {
                ctx.spawn(() -> (c, m) -> { }, ActorOptions.defaults().withName("audit"));
            }

            @Override
            public void receive(ActorContext ctx, Object message) {
                if ("spawn".equals(message)) {
                    ActorRef top = ctx.spawnTopLevel(() -> (c, m) -> { }, ActorOptions.defaults().withName("ledger"));
                    assertEquals(0, top.parentId());
                } else if ("find".equals(message)) {
                    ctx.lookup("ledger").ifPresent(found::add);
                    ctx.lookup("orders/audit").ifPresent(found::add);
                    assertEquals(Optional.empty(), ctx.lookup("orders/nobody"));
                }
            }
        }, "orders"), ActorOptions.defaults().withName("orders"), "acme");
        root.tell("spawn");
        runtime.settle();
        root.tell("find");
        runtime.settle();
        assertEquals(2, found.size());
        assertEquals("ledger", found.get(0).name());
        assertEquals("audit", found.get(1).name());
        assertEquals(found.get(0), runtime.system.lookup("acme", "ledger").orElseThrow());
        assertEquals(Optional.empty(), runtime.system.lookup("", "ledger"), "another tenant's actor is not found");
        assertEquals(3, runtime.system.tenantLoads(group -> 0).get(0).actors(), "orders, audit and ledger count");
    }

    @Test
    void askFromAContextCompletesOnTheAskersTurnAndAdaptsToAMessage() {
        ActorRef doubler = runtime.system.spawn(() -> (ctx, message) -> ctx.reply((Integer) message * 2),
                ActorOptions.defaults().withName("doubler"));
        List<String> seen = new ArrayList<>();
        ActorRef asker = runtime.system.spawn(() -> new Actor() {
            int total;

            @Override
            public void receive(ActorContext ctx, Object message) {
                if (message instanceof Integer n) {
                    ctx.ask(doubler, n, Duration.ofSeconds(1))
                            .thenApply(reply -> (Integer) reply + 1)
                            .thenAccept(reply -> {
                                total += reply; // on this actor's turn: no race with receive
                                assertSame(ctx.self(), ctx.self());
                                seen.add("stage " + reply + " from " + ctx.sender().name());
                            });
                    ctx.ask(doubler, n, Duration.ofSeconds(1), (reply, failure) -> "adapted " + reply);
                } else {
                    seen.add(message + " from " + ctx.sender().name());
                }
            }
        }, ActorOptions.defaults());
        asker.tell(5);
        runtime.settle();
        assertEquals(List.of("stage 11 from doubler", "adapted 10 from doubler"), seen);
    }

    @Test
    void anAskCallbackPendingWhenTheActorStopsNeverRuns() {
        ActorRef silent = runtime.system.spawn(() -> (ctx, message) -> { }, ActorOptions.defaults());
        List<Object> outcomes = new ArrayList<>();
        ActorRef asker = runtime.system.spawn(() -> (ctx, message) -> ctx.ask(silent, "?", Duration.ofMillis(50))
                .whenComplete((reply, failure) -> outcomes.add(failure)), ActorOptions.defaults());
        asker.tell("go");
        runtime.settle();
        runtime.system.stop(asker, StopReason.NORMAL);
        runtime.settle();
        runtime.scheduler.advance(Duration.ofSeconds(1));
        runtime.settle();
        assertTrue(outcomes.isEmpty(), "no callback ran for a stopped actor: " + outcomes);
        assertFalse(asker.whenTerminated().toCompletableFuture().isCompletedExceptionally());
    }

    @Test
    void anAskThatTimesOutFailsTheStageOnTheTurn() {
        ActorRef silent = runtime.system.spawn(() -> (ctx, message) -> { }, ActorOptions.defaults());
        List<Throwable> failures = new ArrayList<>();
        ActorRef asker = runtime.system.spawn(() -> (ctx, message) -> ctx.ask(silent, "?", Duration.ofMillis(50))
                .whenComplete((reply, failure) -> failures.add(failure)), ActorOptions.defaults());
        asker.tell("go");
        runtime.settle();
        runtime.scheduler.advance(Duration.ofSeconds(1));
        runtime.settle();
        assertEquals(1, failures.size());
        assertInstanceOf(java.util.concurrent.TimeoutException.class, failures.get(0));
    }

    @Test
    void runtimeNoticesABehaviourDoesNotMatchAreNoDeadLetters() {
        ActorRef parent = runtime.system.spawn(() -> new Actor() {
            @Override
            public void preStart(ActorContext ctx) {
                ctx.stop(ctx.spawn(() -> (c, m) -> { }));
            }

            @Override
            public void receive(ActorContext ctx, Object message) throws Exception {
                Receive.match(String.class, (c, text) -> got.add(text)).build().onMessage(ctx, message);
            }
        }, ActorOptions.defaults());
        parent.tell("after the child stopped");
        runtime.settle();
        assertEquals(List.of("after the child stopped"), got);
        assertTrue(runtime.deadLetters.isEmpty(), "ChildStopped unhandled is no dead letter: " + runtime.deadLetters);
    }
}
