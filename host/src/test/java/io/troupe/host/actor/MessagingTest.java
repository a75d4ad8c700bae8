package io.troupe.host.actor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.api.ErrorCode;
import io.troupe.api.MailboxOverflow;
import io.troupe.api.Failure;
import io.troupe.api.TroupeException;
import io.troupe.host.dispatch.RuntimeThread;

class MessagingTest {

    private final TestRuntime runtime = new TestRuntime();

    @Test
    void deliversMessagesInSendOrder() {
        List<Object> received = new ArrayList<>();
        ActorRef actor = runtime.system.spawn(() -> (ctx, message) -> received.add(message), ActorOptions.defaults());
        for (int i = 0; i < 1000; i++) {
            actor.tell(i);
        }
        runtime.settle();
        assertEquals(1000, received.size());
        for (int i = 0; i < 1000; i++) {
            assertEquals(i, received.get(i));
        }
    }

    @Test
    void processesABatchPerTurnSoThatBusyActorsShareWorkers() {
        TestRuntime small = new TestRuntime(4);
        List<String> order = new ArrayList<>();
        ActorRef a = small.system.spawn(() -> (ctx, message) -> order.add("a"), ActorOptions.defaults());
        ActorRef b = small.system.spawn(() -> (ctx, message) -> order.add("b"), ActorOptions.defaults());
        small.settle();
        for (int i = 0; i < 8; i++) {
            a.tell(i);
            b.tell(i);
        }
        small.settle();
        assertEquals(List.of("a", "a", "a", "a", "b", "b", "b", "b", "a", "a", "a", "a", "b", "b", "b", "b"), order);
    }

    @Test
    void askCompletesWithTheReply() throws Exception {
        ActorRef echo = runtime.system.spawn(() -> (ctx, message) -> ctx.reply("re:" + message), ActorOptions.defaults());
        CompletableFuture<Object> reply = echo.ask("hi", Duration.ofSeconds(1)).toCompletableFuture();
        runtime.settle();
        assertEquals("re:hi", reply.getNow(null));
    }

    @Test
    void askFailsWithTheFailureCodeOfAFailureReply() {
        ActorRef actor = runtime.system.spawn(() -> (ctx, message) -> ctx.reply(Failure.badRequest("not a number")),
                ActorOptions.defaults());
        CompletableFuture<Object> reply = actor.ask("x", Duration.ofSeconds(1)).toCompletableFuture();
        runtime.settle();
        TroupeException failure = causeOf(reply, TroupeException.class);
        assertEquals(ErrorCode.BAD_REQUEST, failure.code());
        assertEquals("not a number", failure.detail());
    }

    @Test
    void askFailsWithATimeoutWhenNoReplyComes() {
        ActorRef silent = runtime.system.spawn(() -> (ctx, message) -> { }, ActorOptions.defaults());
        CompletableFuture<Object> reply = silent.ask("hello?", Duration.ofSeconds(2)).toCompletableFuture();
        runtime.settle();
        runtime.scheduler.advance(Duration.ofMillis(1999));
        assertFalse(reply.isDone());
        runtime.scheduler.advance(Duration.ofMillis(1));
        causeOf(reply, TimeoutException.class);
    }

    @Test
    void askFailsWithHandlerFailedWhenReceiveThrows() {
        ActorRef failing = runtime.system.spawn(() -> (ctx, message) -> {
            throw new IllegalArgumentException("cannot handle " + message);
        }, ActorOptions.defaults());
        CompletableFuture<Object> reply = failing.ask("this", Duration.ofSeconds(1)).toCompletableFuture();
        runtime.settle();
        TroupeException failure = causeOf(reply, TroupeException.class);
        assertEquals(ErrorCode.HANDLER_FAILED, failure.code());
        assertTrue(failure.detail().contains("cannot handle this"), failure.detail());
    }

    @Test
    void tellToAFullDropNewestMailboxBecomesADeadLetterWithReasonMailboxFull() {
        ActorRef actor = runtime.system.spawn(() -> (ctx, message) -> { },
                ActorOptions.defaults().withMailbox(2, MailboxOverflow.DROP_NEWEST));
        actor.tell("1");
        actor.tell("2");
        actor.tell("3");
        assertEquals(1, runtime.deadLetters.size());
        assertEquals("mailbox full", runtime.deadLetters.get(0).reason());
        assertEquals("3", runtime.deadLetters.get(0).message());
        assertEquals(1, runtime.system.deadLetters().count());
    }

    @Test
    void askToAFullRejectingMailboxFailsAtOnceWithMailboxFull() {
        ActorRef actor = runtime.system.spawn(() -> (ctx, message) -> { },
                ActorOptions.defaults().withMailbox(1, MailboxOverflow.REJECT));
        actor.tell("fills it");
        CompletableFuture<Object> reply = actor.ask("too much", Duration.ofSeconds(1)).toCompletableFuture();
        assertEquals(ErrorCode.MAILBOX_FULL, causeOf(reply, TroupeException.class).code());
    }

    @Test
    void offerReturnsFalseWhenFullWithoutADeadLetter() {
        ActorRef actor = runtime.system.spawn(() -> (ctx, message) -> { },
                ActorOptions.defaults().withMailboxCapacity(1));
        assertTrue(actor.offer("1", null));
        assertFalse(actor.offer("2", null));
        assertTrue(runtime.deadLetters.isEmpty());
        runtime.settle();
        assertTrue(actor.offer("3", null));
    }

    @Test
    void blockingSendTimesOutWhileTheMailboxStaysFull() throws InterruptedException {
        ActorRef actor = runtime.system.spawn(() -> (ctx, message) -> { },
                ActorOptions.defaults().withMailboxCapacity(1));
        actor.tell("fills it");
        assertFalse(actor.send("waits", null, Duration.ofMillis(20)));
        assertTrue(runtime.deadLetters.isEmpty());
    }

    @Test
    void blockingSendSucceedsOnceTheActorMakesRoom() throws Exception {
        List<Object> received = new ArrayList<>();
        ActorRef actor = runtime.system.spawn(() -> (ctx, message) -> received.add(message),
                ActorOptions.defaults().withMailboxCapacity(1));
        runtime.settle();
        actor.tell("first");
        CountDownLatch sending = new CountDownLatch(1);
        AtomicReference<Object> result = new AtomicReference<>();
        Thread sender = new Thread(() -> {
            sending.countDown();
            try {
                result.set(actor.send("second", null, Duration.ofSeconds(10)));
            } catch (InterruptedException e) {
                result.set(e);
            }
        });
        sender.start();
        assertTrue(sending.await(5, TimeUnit.SECONDS));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (sender.isAlive() && System.nanoTime() < deadline) {
            runtime.dispatcher.runUntilIdle();
            sender.join(1);
        }
        runtime.settle();
        assertEquals(Boolean.TRUE, result.get());
        assertEquals(List.of("first", "second"), received);
    }

    @Test
    void blockingSendIsRefusedOnRuntimeThreads() throws InterruptedException {
        ActorRef actor = runtime.system.spawn(() -> (ctx, message) -> { }, ActorOptions.defaults());
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread worker = new RuntimeWorker(() -> {
            try {
                actor.send("x", null, Duration.ofSeconds(1));
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
        worker.start();
        worker.join(TimeUnit.SECONDS.toMillis(5));
        assertInstanceOf(IllegalStateException.class, thrown.get());
    }

    @Test
    void aProducerPausedAboveTheHighWaterMarkIsReleasedBelowTheLowWaterMark() {
        List<Object> received = new ArrayList<>();
        ActorRef actor = runtime.system.spawn(() -> (ctx, message) -> received.add(message),
                ActorOptions.defaults().withMailboxCapacity(8));
        runtime.settle();
        List<String> released = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            actor.tell(i);
        }
        assertFalse(runtime.system.awaitDrain(actor, () -> released.add("early")), "3 of 8 is below half");
        actor.tell(3);
        assertTrue(runtime.system.awaitDrain(actor, () -> released.add("paused")), "4 of 8 is half");
        assertTrue(released.isEmpty());
        runtime.settle();
        assertEquals(List.of("paused"), released);
        assertEquals(4, received.size());
    }

    @Test
    void aProducerWaitingOnAnActorThatStopsIsReleased() {
        ActorRef actor = runtime.system.spawn(() -> (ctx, message) -> { },
                ActorOptions.defaults().withMailboxCapacity(2));
        actor.tell("a");
        List<String> released = new ArrayList<>();
        assertTrue(runtime.system.awaitDrain(actor, () -> released.add("released")));
        runtime.system.stop(actor, StopReason.NORMAL);
        runtime.settle();
        assertEquals(List.of("released"), released);
        assertFalse(runtime.system.awaitDrain(actor, () -> released.add("again")));
    }

    @Test
    void replyWithoutASenderBecomesADeadLetter() {
        ActorRef actor = runtime.system.spawn(() -> (ctx, message) -> ctx.reply("answer"), ActorOptions.defaults());
        actor.tell("question");
        runtime.settle();
        assertEquals(1, runtime.deadLetters.size());
        assertEquals("answer", runtime.deadLetters.get(0).message());
        assertEquals("no sender to reply to", runtime.deadLetters.get(0).reason());
    }

    @Test
    void forwardKeepsTheOriginalSender() throws Exception {
        ActorRef target = runtime.system.spawn(() -> (ctx, message) -> ctx.reply("from target"), ActorOptions.defaults());
        ActorRef relay = runtime.system.spawn(() -> (ctx, message) -> ctx.forward(target), ActorOptions.defaults());
        CompletableFuture<Object> reply = relay.ask("q", Duration.ofSeconds(1)).toCompletableFuture();
        runtime.settle();
        assertEquals("from target", reply.getNow(null));
    }

    @Test
    void referencesCarryUniqueIdsAndTheirParentsId() {
        AtomicReference<ActorRef> child = new AtomicReference<>();
        ActorRef parent = runtime.system.spawn(() -> new io.troupe.api.Actor() {
            @Override
            public void preStart(io.troupe.api.ActorContext ctx) {
                child.set(ctx.spawn(() -> (c, m) -> { }));
            }

            @Override
            public void receive(io.troupe.api.ActorContext ctx, Object message) {
            }
        }, ActorOptions.defaults());
        runtime.settle();
        assertEquals(0, parent.parentId());
        assertEquals(parent.id(), child.get().parentId());
        assertTrue(child.get().id() != parent.id());
    }

    @Test
    void spawningAnUnknownFactoryNameFailsWithNoFactory() {
        TroupeException failure = assertThrows(TroupeException.class,
                () -> runtime.system.spawn("nobody.registers.this", ActorOptions.defaults()));
        assertEquals(ErrorCode.NO_FACTORY, failure.code());
    }

    static <T extends Throwable> T causeOf(CompletableFuture<Object> future, Class<T> type) {
        assertTrue(future.isDone(), "not completed");
        ExecutionException failure = assertThrows(ExecutionException.class, () -> future.get(0, TimeUnit.SECONDS));
        return assertInstanceOf(type, failure.getCause());
    }

    /** A thread that counts as a runtime thread. */
    private static final class RuntimeWorker extends Thread implements RuntimeThread {
        RuntimeWorker(Runnable body) {
            super(body);
        }
    }
}
