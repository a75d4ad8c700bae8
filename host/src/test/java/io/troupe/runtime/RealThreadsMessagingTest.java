package io.troupe.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
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

/**
 * The mailbox and context guarantees on the embedded runtime (real worker threads): a burst loses nothing, and an ask's
 * callbacks never run concurrently with the actor's {@code receive}.
 */
class RealThreadsMessagingTest {

    private final Troupe troupe = Troupe.builder().workers(2).maxWorkers(2).build();

    @AfterEach
    void stop() {
        troupe.close();
    }

    @Test
    void aBurstOfAMillionTellsToASlowDefaultActorLosesNothing() throws InterruptedException {
        int burst = 1_000_000;
        AtomicLong sum = new AtomicLong();
        CountDownLatch all = new CountDownLatch(1);
        AtomicInteger received = new AtomicInteger();
        ActorRef slow = troupe.spawn(() -> (ctx, message) -> {
            if ((Integer) message % 50_000 == 0) {
                LockSupport.parkNanos(2_000_000); // slow now and then: the backlog grows far past the capacity
            }
            sum.addAndGet((Integer) message);
            if (received.incrementAndGet() == burst) {
                all.countDown();
            }
        }, ActorOptions.defaults());
        long deadLettersBefore = troupe.deadLetterCount();
        for (int i = 1; i <= burst; i++) {
            slow.tell(i);
        }
        assertTrue(all.await(60, TimeUnit.SECONDS), "received " + received.get() + " of " + burst);
        assertEquals((long) burst * (burst + 1) / 2, sum.get());
        assertEquals(deadLettersBefore, troupe.deadLetterCount());
    }

    @Test
    void askCallbacksNeverRunConcurrentlyWithReceive() throws InterruptedException {
        int rounds = 20_000;
        ActorRef echo = troupe.spawn(() -> (ctx, message) -> ctx.reply(message), ActorOptions.defaults());
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(1);
        ActorRef asker = troupe.spawn(() -> new Actor() {
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
