package io.troupe.host.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.troupe.api.ActorRef;
import io.troupe.host.actor.ActorSystem;
import io.troupe.host.actor.FactorySource;
import io.troupe.host.dispatch.WorkerPool;
import io.troupe.host.plugin.ActorPool;
import io.troupe.host.plugin.ActorPools;
import io.troupe.host.timer.TimerThread;

/**
 * The monitor's look at the actor pools, with real workers and a made-up clock: a member blocked with
 * a persistent backlog makes the pool grow, new messages go around the stalled member, and the pool
 * shrinks back after the idle period without losing anything.
 */
class ActorPoolWatchTest {

    private static final long MS = 1_000_000L;
    private static final Duration BOUND = Duration.ofSeconds(10);

    private final WorkerPool workers = new WorkerPool(2, 2, "pool-watch-worker",
            ActorPoolWatchTest.class.getClassLoader());
    private final TimerThread timer = new TimerThread("pool-watch-timer");
    private final ActorSystem system = new ActorSystem(workers, timer, name -> Optional.empty(),
            ActorSystem.DEFAULT_THROUGHPUT);
    private final ActorPools pools = new ActorPools();
    private final RecordingListener events = new RecordingListener();
    private final ActorPoolWatch watch = new ActorPoolWatch(pools, ActorPoolSettings.defaults()
            .withHighWater(1).withGrowAfter(Duration.ofSeconds(1)).withCooldown(Duration.ofSeconds(2))
            .withIdlePeriod(Duration.ofSeconds(5)), events);
    private final CountDownLatch release = new CountDownLatch(1);
    private final List<Object> deadLetters = new ArrayList<>();

    @AfterEach
    void close() throws InterruptedException {
        release.countDown();
        assertTrue(system.shutdown(Duration.ofSeconds(5)));
        assertTrue(workers.shutdown(5, TimeUnit.SECONDS));
        timer.shutdown(5, TimeUnit.SECONDS);
    }

    private ActorPool pool(int min, int max) {
        system.deadLetters().subscribe(deadLetters::add);
        FactorySource source = FactorySource.of(() -> (ctx, message) -> {
            if ("block".equals(message)) {
                release.await(20, TimeUnit.SECONDS);
            }
            ctx.reply(message);
        }, "handler:test");
        return new ActorPool(system, pools, (runtime, tenant, options) -> runtime.spawn(source, options, tenant),
                min, max, "test", "t1");
    }

    @Test
    void growsWhileABacklogPersistsAndShrinksBackAfterTheIdlePeriod() throws Exception {
        ActorPool pool = pool(1, 3);
        ActorRef first = pool.members().get(0);
        CompletableFuture<Object> blocked = pool.ask("block", BOUND).toCompletableFuture();
        until("the first member is blocked", () -> system.isReceiving(first));
        List<CompletableFuture<Object>> queued = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            queued.add(pool.ask("queued-" + i, BOUND).toCompletableFuture());
        }
        assertEquals(5, system.mailboxDepth(first));

        for (long t = 0; t < 1000; t += 250) {
            watch.check(t * MS, Set.of());
            assertEquals(1, pool.members().size(), "at " + t + " ms: the backlog has not lasted long enough");
        }
        watch.check(1000 * MS, Set.of());
        ActorPoolChange grown = RecordingListener.next(events.poolResizes, "growth");
        assertEquals(new ActorPoolChange("test", "t1", 1, 2, grown.reason()), grown);
        assertTrue(grown.reason().contains("5 message(s) waiting for 1 healthy member(s)"), grown.reason());
        assertTrue(grown.toString().startsWith("Growing the actor pool of 'test' (tenant t1) from 1 to 2: "));

        // the stall detector reports the blocked turn: the pool routes around it and grows no further
        watch.check(1250 * MS, Set.of(first.id()));
        for (int i = 0; i < 10; i++) {
            assertEquals("served-" + i, pool.ask("served-" + i, BOUND).toCompletableFuture()
                    .get(10, TimeUnit.SECONDS));
        }
        assertFalse(blocked.isDone(), "served while the first member still blocks");
        for (long t = 1500; t < 6000; t += 250) {
            watch.check(t * MS, Set.of(first.id()));
        }
        assertEquals(2, pool.members().size(), "messages stuck behind a stalled member are no reason to grow");
        assertTrue(events.poolResizes.isEmpty());

        release.countDown();
        assertEquals("block", blocked.get(10, TimeUnit.SECONDS));
        for (int i = 0; i < queued.size(); i++) {
            assertEquals("queued-" + i, queued.get(i).get(10, TimeUnit.SECONDS));
        }
        until("the pool is idle", () -> pool.sample().backlog() == 0 && pool.sample().busy() == 0);
        List<ActorRef> before = pool.members();
        long t = 6000;
        for (; t < 10_750; t += 250) {
            watch.check(t * MS, Set.of());
            assertEquals(2, pool.members().size(), "at " + t + " ms: not idle for 5 s yet");
        }
        watch.check(11_000 * MS, Set.of());
        ActorPoolChange shrunk = RecordingListener.next(events.poolResizes, "shrink");
        assertEquals(new ActorPoolChange("test", "t1", 2, 1, shrunk.reason()), shrunk);
        assertTrue(shrunk.reason().contains("idle"), shrunk.reason());
        List<ActorRef> retired = new ArrayList<>(before);
        retired.removeAll(pool.members());
        assertEquals(1, retired.size());
        until("the retired member has stopped", () -> retired.get(0).isStopped());
        assertEquals(0, pool.sample().retiring());

        for (int i = 0; i < 3; i++) {
            assertEquals("after-" + i, pool.ask("after-" + i, BOUND).toCompletableFuture().get(10, TimeUnit.SECONDS));
        }
        assertEquals(List.of(), deadLetters);
    }

    @Test
    void replacesMembersThatStoppedForGoodUntilThePoolIsClosed() {
        ActorPool pool = pool(2, 2);
        ActorRef lost = pool.members().get(0);
        system.stop(lost, io.troupe.host.actor.StopReason.NORMAL);
        until("the member has stopped", lost::isStopped);
        watch.check(0, Set.of());
        assertEquals(2, pool.members().size());
        assertFalse(pool.members().contains(lost));
        ActorRef lostAgain = pool.members().get(1);
        pool.close();
        assertEquals(List.of(), pools.pools());
        system.stop(lostAgain, io.troupe.host.actor.StopReason.NORMAL);
        until("the member has stopped", lostAgain::isStopped);
        watch.check(250 * MS, Set.of());
        assertTrue(pool.members().contains(lostAgain), "a closed pool is not looked at and spawns nothing");
    }

    private static void until(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after " + BOUND + " waiting until " + what);
            }
            LockSupport.parkNanos(MS);
        }
    }
}
