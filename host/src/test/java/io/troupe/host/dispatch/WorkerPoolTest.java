package io.troupe.host.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class WorkerPoolTest {

    private final ClassLoader hostLoader = WorkerPoolTest.class.getClassLoader();

    @Test
    void runsEveryTaskOnRuntimeThreads() throws InterruptedException {
        WorkerPool pool = new WorkerPool(2, "test-worker", hostLoader);
        try {
            int tasks = 10_000;
            CountDownLatch done = new CountDownLatch(tasks);
            AtomicInteger onRuntimeThreads = new AtomicInteger();
            Set<String> names = ConcurrentHashMap.newKeySet();
            for (int i = 0; i < tasks; i++) {
                pool.execute(() -> {
                    if (RuntimeThread.isCurrent()) {
                        onRuntimeThreads.incrementAndGet();
                    }
                    names.add(Thread.currentThread().getName());
                    done.countDown();
                });
            }
            assertTrue(done.await(10, TimeUnit.SECONDS), "tasks left: " + done.getCount());
            assertEquals(tasks, onRuntimeThreads.get());
            assertTrue(names.stream().allMatch(name -> name.startsWith("test-worker-")), names.toString());
        } finally {
            assertTrue(pool.shutdown(5, TimeUnit.SECONDS));
        }
    }

    @Test
    void wakesParkedWorkersForNewTasks() throws InterruptedException {
        WorkerPool pool = new WorkerPool(2, "test-worker", hostLoader);
        try {
            for (int round = 0; round < 200; round++) {
                CountDownLatch ran = new CountDownLatch(1);
                pool.execute(ran::countDown);
                assertTrue(ran.await(5, TimeUnit.SECONDS), "task of round " + round + " never ran");
            }
        } finally {
            assertTrue(pool.shutdown(5, TimeUnit.SECONDS));
        }
    }

    @Test
    void resetsTheContextClassLoaderAfterEachTask() throws InterruptedException {
        WorkerPool pool = new WorkerPool(1, "test-worker", hostLoader);
        try (URLClassLoader pluginLoader = new URLClassLoader(new URL[0], null)) {
            CountDownLatch first = new CountDownLatch(1);
            pool.execute(() -> {
                Thread.currentThread().setContextClassLoader(pluginLoader);
                first.countDown();
            });
            assertTrue(first.await(5, TimeUnit.SECONDS));
            AtomicReference<ClassLoader> seen = new AtomicReference<>();
            CountDownLatch second = new CountDownLatch(1);
            pool.execute(() -> {
                seen.set(Thread.currentThread().getContextClassLoader());
                second.countDown();
            });
            assertTrue(second.await(5, TimeUnit.SECONDS));
            assertEquals(hostLoader, seen.get());
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        } finally {
            assertTrue(pool.shutdown(5, TimeUnit.SECONDS));
        }
    }

    @Test
    void survivesATaskThatThrows() throws InterruptedException {
        WorkerPool pool = new WorkerPool(1, "test-worker", hostLoader);
        try {
            pool.execute(() -> {
                throw new IllegalStateException("boom (expected by the test)");
            });
            CountDownLatch after = new CountDownLatch(1);
            pool.execute(after::countDown);
            assertTrue(after.await(5, TimeUnit.SECONDS));
        } finally {
            assertTrue(pool.shutdown(5, TimeUnit.SECONDS));
        }
    }

    @Test
    void refusesBoundsThatCannotHold() {
        assertThrows(IllegalArgumentException.class, () -> new WorkerPool(0, 1, "test-worker", hostLoader));
        assertThrows(IllegalArgumentException.class, () -> new WorkerPool(2, 1, "test-worker", hostLoader));
    }

    @Test
    void growsUpToItsMaximumAndRetiresIdleWorkersDownToItsMinimum() throws InterruptedException {
        WorkerPool pool = new WorkerPool(1, 3, "test-worker", hostLoader);
        try {
            assertEquals(1, pool.size());
            assertEquals(2, pool.addWorkers(5));
            assertEquals(3, pool.size());
            assertEquals(0, pool.addWorkers(1));
            List<Worker> grown = pool.workers();
            assertEquals(List.of("test-worker-1", "test-worker-2", "test-worker-3"),
                    grown.stream().map(Thread::getName).toList());

            assertEquals(2, pool.retireIdle(5));
            assertEquals(1, pool.size());
            for (Worker worker : grown.subList(1, 3)) {
                worker.join(TimeUnit.SECONDS.toMillis(5));
                assertTrue(!worker.isAlive(), worker.getName() + " should have ended");
            }
            assertEquals(List.of(grown.get(0)), pool.workers(), "the newest workers retire first");
            assertEquals(0, pool.retireIdle(1));

            CountDownLatch ran = new CountDownLatch(1);
            pool.execute(ran::countDown);
            assertTrue(ran.await(5, TimeUnit.SECONDS), "the remaining worker serves");
        } finally {
            assertTrue(pool.shutdown(5, TimeUnit.SECONDS));
        }
    }

    @Test
    void doesNotRetireAWorkerInTheMiddleOfATask() throws InterruptedException {
        WorkerPool pool = new WorkerPool(1, 2, "test-worker", hostLoader);
        CountDownLatch entered = new CountDownLatch(2);
        CountDownLatch release = new CountDownLatch(1);
        try {
            pool.addWorkers(1);
            for (int i = 0; i < 2; i++) {
                pool.execute(() -> {
                    entered.countDown();
                    awaitQuietly(release);
                });
            }
            assertTrue(entered.await(5, TimeUnit.SECONDS));
            assertEquals(0, pool.retireIdle(1), "both workers are busy");
            assertEquals(2, pool.size());
        } finally {
            release.countDown();
            assertTrue(pool.shutdown(5, TimeUnit.SECONDS));
        }
    }

    @Test
    void losesNoTaskWhileWorkersComeAndGo() throws InterruptedException {
        WorkerPool pool = new WorkerPool(1, 4, "test-worker", hostLoader);
        try {
            int tasks = 50_000;
            CountDownLatch done = new CountDownLatch(tasks);
            Thread producer = new Thread(() -> {
                for (int i = 0; i < tasks; i++) {
                    pool.execute(done::countDown);
                }
            });
            producer.start();
            while (done.getCount() > 0 && producer.isAlive()) {
                pool.addWorkers(3);
                pool.retireIdle(3);
            }
            producer.join();
            assertTrue(done.await(10, TimeUnit.SECONDS), "tasks left: " + done.getCount());
            // and the pool still serves single tasks after all that churn
            for (int round = 0; round < 100; round++) {
                pool.retireIdle(3);
                CountDownLatch ran = new CountDownLatch(1);
                pool.execute(ran::countDown);
                pool.addWorkers(1);
                assertTrue(ran.await(5, TimeUnit.SECONDS), "task of round " + round + " never ran");
            }
        } finally {
            assertTrue(pool.shutdown(5, TimeUnit.SECONDS));
        }
    }

    @Test
    void theHeartbeatNamesTheRunningTurnAndItsTask() throws InterruptedException {
        WorkerPool pool = new WorkerPool(1, "test-worker", hostLoader);
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try {
            Worker worker = pool.workers().get(0);
            assertEquals(0, worker.currentTurn());
            assertEquals(0, worker.turns());
            Runnable task = () -> {
                entered.countDown();
                awaitQuietly(release);
            };
            pool.execute(task);
            assertTrue(entered.await(5, TimeUnit.SECONDS));
            long turn = worker.currentTurn();
            assertEquals(1, turn, "the first turn");
            assertSame(task, worker.taskOf(turn));
            assertEquals(null, worker.taskOf(turn + 2), "a turn that is not the current one");

            release.countDown();
            CountDownLatch next = new CountDownLatch(1);
            pool.execute(next::countDown);
            assertTrue(next.await(5, TimeUnit.SECONDS));
            assertEquals(null, worker.taskOf(turn), "the first turn is over");
            assertTrue(worker.turns() >= 1);
        } finally {
            release.countDown();
            assertTrue(pool.shutdown(5, TimeUnit.SECONDS));
        }
    }

    @Test
    void aParkedWorkerIsNotBusy() throws InterruptedException {
        WorkerPool pool = new WorkerPool(1, "test-worker", hostLoader);
        try {
            Worker worker = pool.workers().get(0);
            awaitParked(worker);
            long now = System.nanoTime();
            long later = now + TimeUnit.SECONDS.toNanos(10);
            assertEquals(worker.busyNanos(now), worker.busyNanos(later), "parked time is not busy time");
        } finally {
            assertTrue(pool.shutdown(5, TimeUnit.SECONDS));
        }
    }

    /** A bounded wait until the worker parks; no event announces it. */
    private static void awaitParked(Worker worker) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (worker.getState() != Thread.State.WAITING) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(worker.getName() + " did not park within 10 s");
            }
            Thread.onSpinWait();
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
