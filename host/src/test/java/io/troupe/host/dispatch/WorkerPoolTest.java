package io.troupe.host.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.time.Duration;
import java.net.URLClassLoader;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

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
        assertThrows(IllegalArgumentException.class,
                () -> new WorkerPool(1, 1, "test-worker", hostLoader, Duration.ofNanos(-1)));
    }

    /**
     * A task handed over just as the only worker ends its yielding spin must not wait for a wake-up
     * that nobody sends (the worker parks with no timeout when no other worker is busy). The pauses
     * before each hand-over sweep across the spin time, so that some land on its very end.
     */
    @Test
    void noTaskWaitsWhenItArrivesAsTheSpinEnds() throws InterruptedException {
        Duration spin = Duration.ofNanos(20_000);
        WorkerPool pool = new WorkerPool(1, 1, "test-worker", hostLoader, spin);
        try {
            for (int round = 0; round < 20_000; round++) {
                pauseNanos(round % 41 * 1_000); // 0 to 40 µs: before, at and after the end of the spin
                CountDownLatch ran = new CountDownLatch(1);
                pool.execute(ran::countDown);
                assertTrue(ran.await(5, TimeUnit.SECONDS), "the task of round " + round + " never ran");
            }
        } finally {
            assertTrue(pool.shutdown(5, TimeUnit.SECONDS));
        }
    }

    /**
     * Hand-overs while a worker spins wake nobody, so the spinner that takes one task must wake a
     * parked worker for the next: here the first task waits for the second, which would otherwise
     * stay queued behind it while the other worker sleeps without a timeout.
     */
    @Test
    void aSpinnerThatFindsWorkWakesAWorkerForTheTasksBehindIt() throws InterruptedException {
        WorkerPool pool = new WorkerPool(2, 2, "test-worker", hostLoader, Duration.ofMillis(5));
        try {
            for (int round = 0; round < 50; round++) {
                awaitAllParkedWithoutTimeout(pool);
                CountDownLatch warmedUp = new CountDownLatch(1);
                pool.execute(warmedUp::countDown); // wakes one worker, which spins afterwards
                assertTrue(warmedUp.await(5, TimeUnit.SECONDS));
                CountDownLatch secondRan = new CountDownLatch(1);
                AtomicBoolean firstSawSecond = new AtomicBoolean();
                CountDownLatch firstDone = new CountDownLatch(1);
                pool.execute(() -> { // taken by the spinner; nobody else is awake
                    firstSawSecond.set(await(secondRan, 5));
                    firstDone.countDown();
                });
                pool.execute(secondRan::countDown);
                assertTrue(firstDone.await(10, TimeUnit.SECONDS), "round " + round);
                assertTrue(firstSawSecond.get(), "the second task waited behind the first in round " + round);
            }
        } finally {
            assertTrue(pool.shutdown(5, TimeUnit.SECONDS));
        }
    }

    /** Waits until every worker of {@code pool} is parked with no timeout: no spinner, no watcher. */
    private static void awaitAllParkedWithoutTimeout(WorkerPool pool) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!pool.workers().stream().allMatch(worker -> worker.getState() == Thread.State.WAITING)) {
            assertTrue(System.nanoTime() - deadline < 0, "workers did not park: " + pool.workers().stream()
                    .map(worker -> worker.getName() + " " + worker.getState()).toList());
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // a thread state offers nothing to wait on
        }
    }

    private static boolean await(CountDownLatch latch, int seconds) {
        try {
            return latch.await(seconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Lets {@code nanos} pass on this thread: part of the scenario's timing, not a synchronisation. */
    private static void pauseNanos(long nanos) {
        long deadline = System.nanoTime() + nanos;
        while (System.nanoTime() - deadline < 0) {
            Thread.onSpinWait();
        }
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
    void newBoundsApplyWhileThePoolRuns() throws InterruptedException {
        WorkerPool pool = new WorkerPool(1, 2, "test-worker", hostLoader);
        try {
            pool.reconfigure(3, 5, Duration.ZERO);
            assertEquals(3, pool.size(), "workers started up to the new minimum");
            assertEquals(3, pool.minSize());
            assertEquals(5, pool.maxSize());
            assertEquals(0, pool.spinNanos());
            assertEquals(2, pool.addWorkers(5), "the pool grows to the new maximum");

            pool.reconfigure(1, 2, Duration.ofNanos(10_000));
            assertEquals(2, pool.size(), "idle workers above the new maximum retire");
            assertEquals(10_000, pool.spinNanos());
            assertEquals(1, pool.retireIdle(5), "down to the new minimum");
            assertThrows(IllegalArgumentException.class, () -> pool.reconfigure(2, 1, Duration.ZERO));
            assertEquals(1, pool.minSize(), "refused bounds change nothing");

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
