package io.troupe.host.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.troupe.api.ActorFactory;
import io.troupe.host.dispatch.WorkerPool;

/**
 * Many senders, a pool that grows and shrinks all the time: every message is received exactly once
 * and none becomes a dead letter. Order is not checked: members run in parallel, so a pool does not
 * keep the order of one sender's messages.
 */
class ActorPoolShrinkStressTest {

    private static final int SENDERS = 8;
    private static final int PER_SENDER = 20_000;
    private static final int TOTAL = SENDERS * PER_SENDER;
    /**
     * Messages one sender may have in flight: all senders together stay below one mailbox's capacity,
     * so that a {@code tell} never overflows (an overflow is a dead letter by contract, not a loss).
     */
    private static final int WINDOW = 500;

    private final WorkerPool workers = new WorkerPool(2, 2, "pool-stress-worker",
            ActorPoolShrinkStressTest.class.getClassLoader());
    private final PoolFixture fixture = new PoolFixture(workers);

    @AfterEach
    void close() throws InterruptedException {
        fixture.close();
        assertTrue(workers.shutdown(5, TimeUnit.SECONDS));
    }

    @Test
    void noMessageIsLostOrDuplicatedWhileThePoolGrowsAndShrinks() throws Exception {
        AtomicIntegerArray seen = new AtomicIntegerArray(TOTAL);
        CountDownLatch all = new CountDownLatch(TOTAL);
        Semaphore[] windows = new Semaphore[SENDERS];
        for (int s = 0; s < SENDERS; s++) {
            windows[s] = new Semaphore(WINDOW);
        }
        ActorFactory counter = () -> (ctx, message) -> {
            int index = (Integer) message;
            seen.incrementAndGet(index);
            windows[index / PER_SENDER].release();
            all.countDown();
        };
        ActorPool pool = fixture.pool(counter, 1, 4);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch sendersDone = new CountDownLatch(SENDERS);
        List<Thread> senders = new ArrayList<>();
        for (int s = 0; s < SENDERS; s++) {
            int base = s * PER_SENDER;
            Semaphore window = windows[s];
            boolean blocking = s % 2 == 0; // half tell, half send (offer until accepted)
            Thread sender = new Thread(() -> {
                try {
                    for (int i = 0; i < PER_SENDER; i++) {
                        assertTrue(window.tryAcquire(10, TimeUnit.SECONDS), "no progress for 10 s");
                        if (blocking) {
                            assertTrue(pool.send(base + i, null, Duration.ofSeconds(10)), "send refused");
                        } else {
                            pool.tell(base + i);
                        }
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                } finally {
                    sendersDone.countDown();
                }
            }, "pool-stress-sender-" + s);
            senders.add(sender);
            sender.start();
        }

        int grown = 0;
        int shrunk = 0;
        int stopped = 0;
        while (sendersDone.getCount() > 0) {
            grown += pool.grow() ? 1 : 0;
            grown += pool.grow() ? 1 : 0;
            shrunk += pool.shrink() ? 1 : 0;
            stopped += pool.reapRetired();
            shrunk += pool.shrink() ? 1 : 0;
            stopped += pool.reapRetired();
            Thread.yield();
        }
        for (Thread sender : senders) {
            sender.join(TimeUnit.SECONDS.toMillis(10));
        }
        if (failure.get() != null) {
            throw new AssertionError("a sender failed", failure.get());
        }
        assertTrue(all.await(30, TimeUnit.SECONDS), "received " + (TOTAL - all.getCount()) + " of " + TOTAL);
        for (int i = 0; i < TOTAL; i++) {
            assertEquals(1, seen.get(i), "message " + i);
        }
        assertEquals(List.of(), fixture.deadLetters);
        assertTrue(grown > 10 && shrunk > 10 && stopped > 10,
                "the pool must really have changed: grew " + grown + ", shrank " + shrunk + ", stopped " + stopped);
    }
}
