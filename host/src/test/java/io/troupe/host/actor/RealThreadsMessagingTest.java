package io.troupe.host.actor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.troupe.api.Actor;
import io.troupe.api.ActorContext;
import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.host.dispatch.WorkerPool;
import io.troupe.host.timer.TimerThread;

/**
 * The mailbox and context guarantees under real worker threads: a burst loses nothing, and an ask's
 * callbacks never run concurrently with the actor's {@code receive}.
 */
class RealThreadsMessagingTest {

    private final WorkerPool workers = new WorkerPool(2, 2, "burst-worker", getClass().getClassLoader());
    private final TimerThread timer = new TimerThread("burst-timer");
    private final ActorSystem system = new ActorSystem(workers, timer, name -> Optional.empty(),
            ActorSystem.DEFAULT_THROUGHPUT);

    @AfterEach
    void stop() throws InterruptedException {
        system.shutdown(Duration.ofSeconds(5));
        timer.shutdown(5, TimeUnit.SECONDS);
        workers.shutdown(5, TimeUnit.SECONDS);
    }

    @Test
    void aBurstOfAMillionTellsToASlowDefaultActorLosesNothing() throws InterruptedException {
        int burst = 1_000_000;
        AtomicLong sum = new AtomicLong();
        CountDownLatch all = new CountDownLatch(1);
        AtomicInteger received = new AtomicInteger();
        ActorRef slow = system.spawn(() -> (ctx, message) -> {
            if ((Integer) message % 50_000 == 0) {
                LockSupport.parkNanos(2_000_000); // slow now and then: the backlog grows far past the capacity
            }
            sum.addAndGet((Integer) message);
            if (received.incrementAndGet() == burst) {
                all.countDown();
            }
        }, ActorOptions.defaults());
        long deadLettersBefore = system.deadLetters().count();
        for (int i = 1; i <= burst; i++) {
            slow.tell(i);
        }
        assertTrue(all.await(60, TimeUnit.SECONDS), "received " + received.get() + " of " + burst);
        assertEquals((long) burst * (burst + 1) / 2, sum.get());
        assertEquals(deadLettersBefore, system.deadLetters().count());
    }

    @Test
    void askCallbacksNeverRunConcurrentlyWithReceive() throws InterruptedException {
        int rounds = 20_000;
        ActorRef echo = system.spawn(() -> (ctx, message) -> ctx.reply(message), ActorOptions.defaults());
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(1);
        ActorRef asker = system.spawn(() -> new Actor() {
            int replies;

            private void enter() {
                if (inside.incrementAndGet() != 1) {
                    overlaps.incrementAndGet();
                }
            }

            @Override
            public void receive(ActorContext ctx, Object message) {
                enter();
                try {
                    ctx.ask(echo, message, Duration.ofSeconds(10)).thenAccept(reply -> {
                        enter();
                        try {
                            if (++replies == rounds) {
                                done.countDown();
                            }
                        } finally {
                            inside.decrementAndGet();
                        }
                    });
                } finally {
                    inside.decrementAndGet();
                }
            }
        }, ActorOptions.defaults());
        for (int i = 0; i < rounds; i++) {
            asker.tell(i);
        }
        assertTrue(done.await(30, TimeUnit.SECONDS), "every reply reached its callback");
        assertEquals(0, overlaps.get(), "a callback ran while receive ran, or the other way round");
    }
}
