package io.troupe.host.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

class RunQueueTest {

    @Test
    void returnsTasksInOrderWhileTheRingHasRoom() {
        RunQueue queue = new RunQueue(8);
        List<Runnable> tasks = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            Runnable task = () -> { };
            tasks.add(task);
            queue.offer(task);
        }
        for (Runnable task : tasks) {
            assertSame(task, queue.poll());
        }
        assertNull(queue.poll());
    }

    @Test
    void spillsIntoTheOverflowInsteadOfRefusing() {
        RunQueue queue = new RunQueue(4);
        for (int i = 0; i < 100; i++) {
            queue.offer(() -> { });
        }
        assertEquals(100, queue.size());
        int taken = 0;
        while (queue.poll() != null) {
            taken++;
        }
        assertEquals(100, taken);
    }

    @Test
    void handsEveryTaskToExactlyOneConsumerUnderContention() throws InterruptedException {
        RunQueue queue = new RunQueue(64);
        int producers = 2;
        int consumers = 2;
        int perProducer = 100_000;
        Set<Runnable> seen = ConcurrentHashMap.newKeySet();
        AtomicInteger taken = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(producers + consumers);
        for (int p = 0; p < producers; p++) {
            new Thread(() -> {
                for (int i = 0; i < perProducer; i++) {
                    queue.offer(new Task());
                }
                done.countDown();
            }).start();
        }
        for (int c = 0; c < consumers; c++) {
            new Thread(() -> {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (taken.get() < producers * perProducer && System.nanoTime() < deadline) {
                    Runnable task = queue.poll();
                    if (task != null) {
                        assertTrue(seen.add(task), "a task was handed out twice");
                        taken.incrementAndGet();
                    }
                }
                done.countDown();
            }).start();
        }
        assertTrue(done.await(60, TimeUnit.SECONDS));
        assertEquals(producers * perProducer, taken.get());
        assertEquals(producers * perProducer, seen.size());
    }

    private static final class Task implements Runnable {
        @Override
        public void run() {
        }
    }
}
