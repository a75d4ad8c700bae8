package io.troupe.host.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The workers' next-task slot: tasks queued by a task run after it, and are not stuck behind a long one. */
@Timeout(60)
class NextTaskSlotTest {

    private final ClassLoader hostLoader = NextTaskSlotTest.class.getClassLoader();

    @Test
    void aTaskQueuedByATaskRunsAfterItNeverInsideIt() throws InterruptedException {
        WorkerPool pool = new WorkerPool(1, "slot-worker", hostLoader);
        try {
            List<String> order = new CopyOnWriteArrayList<>();
            CountDownLatch done = new CountDownLatch(1);
            pool.execute(() -> {
                pool.execute(() -> {
                    order.add("queued");
                    done.countDown();
                });
                order.add("queuing task ends");
            });
            assertTrue(done.await(5, TimeUnit.SECONDS));
            assertEquals(List.of("queuing task ends", "queued"), order);
        } finally {
            assertTrue(pool.shutdown(5, TimeUnit.SECONDS));
        }
    }

    @Test
    void anIdleWorkerTakesOverATaskQueuedBehindATurnThatDoesNotEnd() throws InterruptedException {
        WorkerPool pool = new WorkerPool(2, "slot-worker", hostLoader);
        try {
            CountDownLatch queuedRan = new CountDownLatch(1);
            CountDownLatch blockerSawIt = new CountDownLatch(1);
            pool.execute(() -> {
                pool.execute(queuedRan::countDown); // lands in this worker's slot
                try {
                    // this turn waits for the queued task: only the other worker can run it
                    if (queuedRan.await(10, TimeUnit.SECONDS)) {
                        blockerSawIt.countDown();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertTrue(blockerSawIt.await(15, TimeUnit.SECONDS), "the queued task stayed behind the blocked turn");
        } finally {
            assertTrue(pool.shutdown(5, TimeUnit.SECONDS));
        }
    }

    @Test
    void theSlotCountsAsQueuedWork() throws InterruptedException {
        WorkerPool pool = new WorkerPool(1, "slot-worker", hostLoader);
        try {
            CountDownLatch queued = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch ran = new CountDownLatch(1);
            pool.execute(() -> {
                pool.execute(ran::countDown);
                queued.countDown();
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertTrue(queued.await(5, TimeUnit.SECONDS));
            assertEquals(1, pool.queued(), "a monitor sees the task waiting in the slot");
            release.countDown();
            assertTrue(ran.await(5, TimeUnit.SECONDS));
        } finally {
            assertTrue(pool.shutdown(5, TimeUnit.SECONDS));
        }
    }
}
