package io.troupe.host.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker's own queue: tasks queued by a task run after it, in order, are not stuck behind a long or blocked
 * turn (whether the other workers are idle or busy), none is left behind when its tenant must wait, and a
 * backlog is shared with the idle workers.
 */
@Timeout(60)
class OwnQueueTest {

    private final ClassLoader hostLoader = OwnQueueTest.class.getClassLoader();

    @Test
    void aTaskQueuedByATaskRunsAfterItNeverInsideIt() throws InterruptedException {
        WorkerPool pool = new WorkerPool(1, "own-queue-worker", hostLoader);
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
        WorkerPool pool = new WorkerPool(2, "own-queue-worker", hostLoader);
        try {
            CountDownLatch queuedRan = new CountDownLatch(1);
            CountDownLatch blockerSawIt = new CountDownLatch(1);
            pool.execute(() -> {
                pool.execute(queuedRan::countDown); // lands in this worker's own queue
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
    void aBusyWorkerTakesOverTasksQueuedBehindATurnThatDoesNotEnd() throws InterruptedException {
        WorkerPool pool = new WorkerPool(2, "own-queue-worker", hostLoader);
        AtomicBoolean feeding = new AtomicBoolean(true);
        AtomicInteger waiting = new AtomicInteger();
        Thread feeder = new Thread(() -> { // keeps the shared queue from running dry: no worker is ever idle
            while (feeding.get()) {
                if (waiting.get() < 4_000) { // 80 ms of work: the queue never runs dry, even while the feeder is descheduled
                    waiting.incrementAndGet();
                    pool.execute(() -> {
                        long until = System.nanoTime() + 20_000;
                        while (System.nanoTime() - until < 0) {
                            Thread.onSpinWait();
                        }
                        waiting.decrementAndGet();
                    });
                } else {
                    Thread.onSpinWait();
                }
            }
        }, "feeder");
        try {
            feeder.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (waiting.get() < 3_000 && System.nanoTime() - deadline < 0) {
                Thread.onSpinWait(); // both workers busy before the blocking turn comes
            }
            CountDownLatch queuedRan = new CountDownLatch(10);
            CountDownLatch blockerSawThem = new CountDownLatch(1);
            pool.execute(() -> {
                for (int i = 0; i < 10; i++) {
                    pool.execute(queuedRan::countDown); // into this worker's own queue, fewer than a backlog
                }
                try {
                    // this turn waits for the queued tasks: only the other worker, busy, can run them
                    if (queuedRan.await(10, TimeUnit.SECONDS)) {
                        blockerSawThem.countDown();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertTrue(blockerSawThem.await(15, TimeUnit.SECONDS),
                    "the queued tasks waited behind the blocked turn for 10 s while the other worker was busy");
        } finally {
            feeding.set(false);
            feeder.join(5_000);
            assertTrue(pool.shutdown(5, TimeUnit.SECONDS));
        }
    }

    /** A task of a tenant's lane. */
    private record TenantTask(RunGroup group, Runnable body) implements Runnable, Grouped {
        @Override
        public RunGroup runGroup() {
            return group;
        }

        @Override
        public void run() {
            body.run();
        }
    }

    @Test
    void tasksWhoseTenantMustWaitLeaveNoneStrandedInTheOwnQueue() throws InterruptedException {
        WorkerPool pool = new WorkerPool(1, 2, "own-queue-worker", hostLoader);
        try {
            RunGroup[] tenants = {pool.group("a"), pool.group("b"), pool.group("c")};
            pool.ensureReserve();
            assertEquals(1, pool.laneCap(), "one turn per tenant at once: queued tasks often must wait in their lane");
            SplittableRandom random = new SplittableRandom(20261204);
            for (int round = 0; round < 300; round++) {
                int roots = 4;
                int children = 6;
                CountDownLatch done = new CountDownLatch(roots * (children + 1));
                for (int r = 0; r < roots; r++) {
                    RunGroup[] picks = new RunGroup[children];
                    for (int c = 0; c < children; c++) {
                        picks[c] = tenants[random.nextInt(tenants.length)];
                    }
                    pool.execute(new TenantTask(tenants[random.nextInt(tenants.length)], () -> {
                        for (RunGroup pick : picks) { // into this worker's own queue, each tenant's turn capped at one
                            pool.execute(new TenantTask(pick, () -> {
                                long until = System.nanoTime() + 5_000;
                                while (System.nanoTime() - until < 0) {
                                    Thread.onSpinWait();
                                }
                                done.countDown();
                            }));
                        }
                        done.countDown();
                    }));
                }
                assertTrue(done.await(10, TimeUnit.SECONDS),
                        "round " + round + ": " + done.getCount() + " tasks never ran; queued: " + pool.queued());
            }
        } finally {
            assertTrue(pool.shutdown(5, TimeUnit.SECONDS));
        }
    }

    @Test
    void tasksQueuedByATaskRunInTheOrderTheyWereQueued() throws InterruptedException {
        WorkerPool pool = new WorkerPool(1, "own-queue-worker", hostLoader);
        try {
            List<Integer> order = new CopyOnWriteArrayList<>();
            CountDownLatch done = new CountDownLatch(300);
            pool.execute(() -> {
                for (int i = 0; i < 300; i++) { // beyond the own queue's 256: the rest go to the shared queue
                    int index = i;
                    pool.execute(() -> {
                        order.add(index);
                        done.countDown();
                    });
                }
            });
            assertTrue(done.await(10, TimeUnit.SECONDS));
            assertEquals(300, order.size());
            // every LOCAL_STREAK tasks the shared queue, where the rest overflowed, has a turn in between
            assertEquals(IntStream.range(0, LocalQueue.CAPACITY).boxed().toList(),
                    order.stream().filter(index -> index < LocalQueue.CAPACITY).toList(), "the own queue in order");
            assertEquals(IntStream.range(LocalQueue.CAPACITY, 300).boxed().toList(),
                    order.stream().filter(index -> index >= LocalQueue.CAPACITY).toList(), "the overflow in order");
        } finally {
            assertTrue(pool.shutdown(5, TimeUnit.SECONDS));
        }
    }

    @Test
    void aBacklogIsSharedWithTheIdleWorkers() throws InterruptedException {
        WorkerPool pool = new WorkerPool(2, "own-queue-worker", hostLoader);
        try {
            Set<String> threads = ConcurrentHashMap.newKeySet();
            CountDownLatch done = new CountDownLatch(200);
            pool.execute(() -> {
                for (int i = 0; i < 200; i++) { // more than Worker.BACKLOG: the other worker takes part
                    pool.execute(() -> {
                        threads.add(Thread.currentThread().getName());
                        long until = System.nanoTime() + 200_000;
                        while (System.nanoTime() - until < 0) {
                            Thread.onSpinWait();
                        }
                        done.countDown();
                    });
                }
            });
            assertTrue(done.await(20, TimeUnit.SECONDS));
            assertEquals(2, threads.size(), "ran on " + threads);
        } finally {
            assertTrue(pool.shutdown(5, TimeUnit.SECONDS));
        }
    }

    @Test
    void theOwnQueueCountsAsQueuedWork() throws InterruptedException {
        WorkerPool pool = new WorkerPool(1, "own-queue-worker", hostLoader);
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
            assertEquals(1, pool.queued(), "a monitor sees the task waiting in the own queue");
            release.countDown();
            assertTrue(ran.await(5, TimeUnit.SECONDS));
        } finally {
            assertTrue(pool.shutdown(5, TimeUnit.SECONDS));
        }
    }
}
