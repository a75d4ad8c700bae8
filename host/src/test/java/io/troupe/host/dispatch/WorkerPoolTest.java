package io.troupe.host.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

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
}
