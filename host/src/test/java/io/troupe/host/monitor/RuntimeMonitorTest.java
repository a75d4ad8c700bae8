package io.troupe.host.monitor;

import static io.troupe.host.monitor.RecordingListener.next;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.api.DeadLetter;
import io.troupe.api.Message;
import io.troupe.host.actor.ActorSystem;
import io.troupe.host.actor.FactorySource;
import io.troupe.host.deploy.SwapCounts;
import io.troupe.host.dispatch.Worker;
import io.troupe.host.dispatch.WorkerPool;
import io.troupe.host.plugin.ActorPools;
import io.troupe.host.reactor.EventLoop;
import io.troupe.host.timer.TimerThread;

@Timeout(60)
class RuntimeMonitorTest {

    private static final long MILLI = 1_000_000L;
    private static final Duration ASK_TIMEOUT = Duration.ofSeconds(10);

    /** Short thresholds, so that the real-thread test runs in well under a second. */
    private static final MonitorSettings FAST = MonitorSettings.defaults()
            .withPeriod(Duration.ofMillis(10))
            .withStallThreshold(Duration.ofMillis(100))
            .withLoopStallThreshold(Duration.ofMillis(100))
            .withIdlePeriod(Duration.ofMillis(300))
            .withSummaryInterval(Duration.ZERO)
            .withStatsWindow(Duration.ofMillis(50));

    private final RecordingListener events = new RecordingListener();
    private final TimerThread timer = new TimerThread("test-timer");
    private WorkerPool pool;
    private ActorSystem system;
    private RuntimeMonitor monitor;
    private EventLoop loop;
    private Blocker blocker;
    private final CountDownLatch loopRelease = new CountDownLatch(1);
    private final SwapCounts swaps = new SwapCounts();

    private void startRuntime(int min, int max, List<EventLoop> loops) {
        startRuntime(min, max, loops, FAST);
    }

    private void startRuntime(int min, int max, List<EventLoop> loops, MonitorSettings settings) {
        pool = new WorkerPool(min, max, "test-worker", RuntimeMonitorTest.class.getClassLoader());
        system = new ActorSystem(pool, timer, name -> Optional.empty(), ActorSystem.DEFAULT_THROUGHPUT);
        monitor = new RuntimeMonitor(settings, pool, system, () -> loops, new HostCounts(() -> 7, () -> 8192, swaps),
                events, new ActorPools(), ActorPoolSettings.defaults());
    }

    @AfterEach
    void stopEverything() throws InterruptedException {
        if (blocker != null) {
            blocker.release();
        }
        loopRelease.countDown();
        if (monitor != null) {
            assertTrue(monitor.stop(Duration.ofSeconds(5)));
        }
        if (system != null) {
            assertTrue(system.shutdown(Duration.ofSeconds(5)));
        }
        if (pool != null) {
            assertTrue(pool.shutdown(5, TimeUnit.SECONDS));
        }
        if (loop != null) {
            loop.shutdown();
            assertTrue(loop.awaitTermination(Duration.ofSeconds(5)));
        }
        timer.shutdown(5, TimeUnit.SECONDS);
    }

    @Test
    void aBlockedActorIsReportedOnceThePoolGrowsSoOthersAreServedAndShrinksBackWhenIdle() throws Exception {
        startRuntime(1, 3, List.of());
        monitor.start();
        blocker = new Blocker();
        ActorRef stuck = system.spawn(() -> blocker, ActorOptions.defaults().withName("blocker"));
        ActorRef echo = system.spawn(() -> (ctx, message) -> ctx.reply("re:" + message),
                ActorOptions.defaults().withName("echo"));

        CompletableFuture<Object> blocked = stuck.ask(Message.of("block", ""), ASK_TIMEOUT).toCompletableFuture();
        assertTrue(blocker.entered.await(10, TimeUnit.SECONDS));
        CompletableFuture<Object> served = echo.ask("ping", ASK_TIMEOUT).toCompletableFuture();

        Stall stall = next(events.stalls, "stall report");
        assertEquals(Stall.Kind.TURN, stall.kind());
        assertEquals("blocker", stall.turn().name());
        assertEquals("Message 'block'", stall.turn().message());
        assertTrue(stall.elapsedNanos() >= 100 * MILLI);
        assertTrue(runsTestCode(stall), stall.describe());

        assertEquals("re:ping", served.get(10, TimeUnit.SECONDS));
        assertFalse(blocker.isReleased(), "the echo must be served while the blocker still blocks");
        PoolChange grown = next(events.resizes, "growth");
        assertEquals(new PoolChange(1, 2, grown.reason()), grown);
        assertEquals(2, pool.size());

        blocker.release();
        assertEquals("released", blocked.get(10, TimeUnit.SECONDS));
        Stall over = next(events.recoveries, "recovery");
        assertEquals(stall, over);
        PoolChange shrunk = next(events.resizes, "shrinking");
        assertEquals(new PoolChange(2, 1, shrunk.reason()), shrunk);
        assertEquals(1, pool.size());
        assertTrue(events.stalls.isEmpty(), "reported more than once: " + events.stalls);
        assertEquals(1, monitor.stats().snapshot().stalls());
    }

    @Test
    void aStalledTurnIsReportedOnceWithItsActorMessageAndStack() throws Exception {
        startRuntime(1, 1, List.of());
        blocker = new Blocker();
        ActorRef stuck = system.spawn(() -> blocker, ActorOptions.defaults().withName("blocker"));
        CompletableFuture<Object> blocked = stuck.ask(Message.of("block", ""), ASK_TIMEOUT).toCompletableFuture();
        assertTrue(blocker.entered.await(10, TimeUnit.SECONDS));
        long start = System.nanoTime();
        monitor.tick(start); // the first look that sees the turn

        monitor.tick(start + 99 * MILLI);
        assertTrue(events.stalls.isEmpty());
        monitor.tick(start + 150 * MILLI);
        Stall stall = events.stalls.remove();
        assertEquals("test-worker-1", stall.thread());
        assertEquals(start, stall.sinceNanos());
        assertEquals(150, stall.elapsedMillis());
        assertEquals("blocker", stall.turn().name());
        assertEquals(stuck.id(), stall.turn().id());
        assertEquals("Message 'block'", stall.turn().message());
        assertTrue(runsTestCode(stall), stall.describe());
        assertTrue(stall.describe().startsWith("Worker test-worker-1 has been running actor blocker#"),
                stall.describe());

        monitor.tick(start + 10_000 * MILLI);
        assertTrue(events.stalls.isEmpty(), "a stall is reported once");
        assertEquals(1, monitor.stats().snapshot().stalls());

        blocker.release();
        assertEquals("released", blocked.get(10, TimeUnit.SECONDS));
        ActorRef echo = system.spawn(() -> (ctx, message) -> ctx.reply(message), ActorOptions.defaults());
        assertEquals("after", echo.ask("after", ASK_TIMEOUT).toCompletableFuture().get(10, TimeUnit.SECONDS));
        monitor.tick(System.nanoTime());
        assertSame(stall, events.recoveries.remove());
    }

    @Test
    void aLoopBlockedOutsideSelectIsReportedOnceButALoopWaitingInSelectIsNot() throws Exception {
        loop = new EventLoop("test-loop");
        startRuntime(1, 1, List.of(loop));
        awaitCondition(() -> loop.busySinceNanos() == 0, "the loop waits in select");
        monitor.tick(System.nanoTime() + 10_000 * MILLI);
        assertTrue(events.stalls.isEmpty(), "an idle loop is not stalled: " + events.stalls);

        CountDownLatch entered = new CountDownLatch(1);
        loop.execute(() -> {
            entered.countDown();
            try {
                loopRelease.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertTrue(entered.await(10, TimeUnit.SECONDS));
        long since = loop.busySinceNanos();
        assertNotEquals(0, since);
        monitor.tick(since + 99 * MILLI);
        assertTrue(events.stalls.isEmpty());
        monitor.tick(since + 150 * MILLI);
        Stall stall = events.stalls.remove();
        assertEquals(Stall.Kind.LOOP, stall.kind());
        assertEquals("test-loop", stall.thread());
        assertNull(stall.turn());
        assertTrue(runsTestCode(stall), stall.describe());
        monitor.tick(since + 10_000 * MILLI);
        assertTrue(events.stalls.isEmpty(), "a stall is reported once");

        loopRelease.countDown();
        CountDownLatch after = new CountDownLatch(1);
        loop.execute(after::countDown); // runs in a later iteration, after the loop went back to select
        assertTrue(after.await(10, TimeUnit.SECONDS));
        monitor.tick(System.nanoTime());
        assertSame(stall, events.recoveries.remove());
        assertTrue(events.stalls.isEmpty(), "the stall is not reported again once over: " + events.stalls);
    }

    @Test
    void aLoopStallThatEndsBetweenTwoLooksIsReportedAfterwardsOnceWithoutAStack() throws Exception {
        loop = new EventLoop("test-loop");
        startRuntime(1, 1, List.of(loop));
        awaitCondition(() -> loop.busySinceNanos() == 0, "the loop waits in select");
        monitor.tick(System.nanoTime()); // from this look on, the loop's longest time away counts

        CountDownLatch done = new CountDownLatch(1);
        loop.execute(() -> {
            try {
                new CountDownLatch(1).await(150, TimeUnit.MILLISECONDS); // a handler that blocks for 150 ms
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            done.countDown();
        });
        assertTrue(done.await(10, TimeUnit.SECONDS));
        awaitCondition(() -> loop.busySinceNanos() == 0, "the loop is back in select");
        assertTrue(events.stalls.isEmpty(), "no look happened during the block");

        monitor.tick(System.nanoTime());
        Stall stall = events.stalls.remove();
        assertEquals(Stall.Kind.LOOP_ENDED, stall.kind());
        assertEquals("test-loop", stall.thread());
        assertTrue(stall.elapsedMillis() >= 150, stall.describe());
        assertTrue(stall.stack().isEmpty());
        assertTrue(stall.describe().startsWith("IO loop test-loop was away from select for "), stall.describe());
        monitor.tick(System.nanoTime());
        assertTrue(events.stalls.isEmpty(), "reported once: " + events.stalls);
        assertTrue(events.recoveries.isEmpty(), "nothing to recover from: " + events.recoveries);
    }

    @Test
    void statsShowWorkersLoopsActorsHandlersAndBusyRatios() throws Exception {
        loop = new EventLoop("test-loop");
        startRuntime(2, 5, List.of(loop));
        blocker = new Blocker();
        ActorRef stuck = system.spawn(FactorySource.of(() -> blocker, "handler:block"),
                ActorOptions.defaults().withName("handler:block@a"), "a");
        ActorRef echo = system.spawn(FactorySource.of(
                () -> (ctx, message) -> ctx.reply(message), "handler:echo"),
                ActorOptions.defaults().withName("handler:echo@a"), "a");
        ActorRef failing = system.spawn(FactorySource.of(() -> (ctx, message) -> {
            if ("x".equals(message)) {
                throw new IllegalStateException("fails on x (expected by the test)");
            }
            ctx.reply(message);
        }, "handler:echo"), ActorOptions.defaults().withName("handler:echo@b"), "b");
        failing.tell("x");
        // answered by the restarted instance, so after the failure was counted
        assertEquals("y", failing.ask("y", ASK_TIMEOUT).toCompletableFuture().get(10, TimeUnit.SECONDS));
        assertEquals("hi", echo.ask("hi", ASK_TIMEOUT).toCompletableFuture().get(10, TimeUnit.SECONDS));
        stuck.tell(Message.of("block", ""));
        assertTrue(blocker.entered.await(10, TimeUnit.SECONDS));
        Worker busy = (Worker) blocker.runner;
        long start = System.nanoTime();

        monitor.tick(start);                // opens the first window, sees the blocked turn
        monitor.tick(start + 150 * MILLI); // closes it: the blocked worker was busy throughout
        var snapshot = monitor.stats().snapshot();

        assertEquals(3, snapshot.workers().current(), "the minimum, and the reserve kept once tenants run");
        assertEquals(2, snapshot.workers().min());
        assertEquals(5, snapshot.workers().max());
        assertTrue(snapshot.workers().busy() >= 1, "the blocked worker at least");
        var busyStats = snapshot.workers().threads().stream()
                .filter(t -> t.name().equals(busy.getName())).findFirst().orElseThrow();
        assertEquals(1.0, busyStats.busyRatio(), 1e-9);
        assertEquals(1, snapshot.loops().size());
        assertEquals("test-loop", snapshot.loops().get(0).name());
        assertEquals(3, snapshot.actors());
        assertEquals(7, snapshot.logRecordsDropped());
        assertEquals(8192, snapshot.logQueueBytes());
        assertEquals(0, snapshot.pluginSwaps());
        swaps.swapped();
        swaps.swapped();
        swaps.rolledBack();
        assertEquals(2, monitor.stats().snapshot().pluginSwaps(), "read at each snapshot, not copied");
        assertEquals(1, monitor.stats().snapshot().pluginRollbacks());
        assertTrue(snapshot.deadLetters() >= 1, "the failed message is a dead letter");
        assertEquals(List.of("block", "echo"), snapshot.handlers().stream().map(h -> h.name()).toList());
        var echoStats = snapshot.handlers().get(1);
        assertEquals(2, echoStats.actors());
        // "x" is counted at the end of the failing turn, before the restart that answers "y"; the
        // other messages are counted when their turns end, which may be just after their replies
        assertTrue(echoStats.processed() >= 1 && echoStats.processed() <= 3, "processed " + echoStats.processed());
        assertEquals(1, echoStats.failures());

        // a stopped actor's counts stay in its handler's totals: they are counters, they never go back
        system.stop(failing, io.troupe.host.actor.StopReason.NORMAL);
        awaitCondition(() -> echoActors(monitor.stats().snapshot()) == 1, "the failing echo actor stopped");
        var afterStop = monitor.stats().snapshot().handlers().get(1);
        assertEquals(1, afterStop.actors());
        assertTrue(afterStop.processed() >= echoStats.processed(), afterStop + " after " + echoStats);
        assertEquals(1, afterStop.failures(), "the stopped actor's failure is still counted");
    }

    private static int echoActors(io.troupe.api.monitor.RuntimeSnapshot snapshot) {
        return snapshot.handlers().stream().filter(h -> h.name().equals("echo")).mapToInt(h -> h.actors())
                .findFirst().orElse(0);
    }

    @Test
    void writesASummaryLineEveryIntervalWithTheChangesSinceTheLastOne() throws Exception {
        startRuntime(1, 2, List.of(), FAST.withSummaryInterval(Duration.ofSeconds(60)));
        Worker worker = pool.workers().get(0);
        awaitCondition(() -> worker.getState() == Thread.State.WAITING, "the idle worker parks");
        long now = System.nanoTime();
        monitor.tick(now + 59_000 * MILLI);
        assertTrue(events.summaries.isEmpty());
        monitor.tick(now + 61_000 * MILLI);
        assertEquals("Runtime: workers 1 (min 1, max 2) busy 0%, queued 0, stalled 0; loops 0 busy 0%; actors 0,"
                + " mailbox backlog 0; dead letters 0 (+0); log records dropped 7 (+7); stalls 0 (+0)",
                events.summaries.remove());

        system.deadLetters().publish(new DeadLetter(null, "lost", null, "test", null));
        monitor.tick(now + 122_000 * MILLI);
        String second = events.summaries.remove();
        assertTrue(second.contains("dead letters 1 (+1); log records dropped 7 (+0)"), second);
    }

    /** Whether the stack shows the blocking test code (the stack may be taken just before the latch). */
    private static boolean runsTestCode(Stall stall) {
        return stall.stack().stream().anyMatch(frame -> frame.getClassName().equals(Blocker.class.getName())
                || frame.getClassName().startsWith(RuntimeMonitorTest.class.getName()));
    }

    /** A bounded wait for a condition that no event announces; never a fixed sleep. */
    private static void awaitCondition(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not true within 10 s: " + what);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }
}
