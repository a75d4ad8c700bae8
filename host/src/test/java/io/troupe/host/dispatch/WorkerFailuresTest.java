package io.troupe.host.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.troupe.host.supervise.RecordingFatalAction;

/**
 * Workers under failures: a throwing task leaves the worker its queue; a fatal error goes to the process's
 * fatal action, and a worker that ended that way (only possible when the action returns, as here) is replaced,
 * so the queue is served.
 */
@Timeout(30)
class WorkerFailuresTest {

    private WorkerPool pool;
    private RecordingFatalAction fatal;

    @BeforeEach
    void start() {
        fatal = RecordingFatalAction.install();
        pool = new WorkerPool(1, 1, "failing-worker", WorkerFailuresTest.class.getClassLoader());
    }

    @AfterEach
    void stop() throws InterruptedException {
        assertTrue(pool.shutdown(5, TimeUnit.SECONDS));
        fatal.close();
    }

    @Test
    void tasksBehindAThrowingTaskRunOnTheSameWorker() throws InterruptedException {
        CountDownLatch after = new CountDownLatch(2);
        Thread first = pool.workers().get(0);
        pool.execute(() -> {
            throw new IllegalStateException("a task's bug");
        });
        pool.execute(() -> {
            if (Thread.currentThread() == first) {
                after.countDown();
            }
        });
        pool.execute(() -> {
            throw new AssertionError("an Error that is not fatal");
        });
        pool.execute(() -> {
            if (Thread.currentThread() == first) {
                after.countDown();
            }
        });
        assertTrue(after.await(5, TimeUnit.SECONDS), "tasks left: " + after.getCount());
        assertEquals(0, fatal.heard().size());
    }

    @Test
    void anOutOfMemoryErrorIsFatalAndTheQueueIsServedByAReplacement() throws InterruptedException {
        pool.execute(() -> {
            long[] tooLarge = new long[Integer.MAX_VALUE]; // a real OutOfMemoryError, thrown by the VM
            tooLarge[0] = 1;
        });
        RecordingFatalAction.Fatal heard = fatal.awaitFirst(5);
        assertEquals("failing-worker-1", heard.thread());
        assertInstanceOf(OutOfMemoryError.class, heard.error());
        assertTrue(heard.doing().startsWith("running task "), heard.doing());
        CountDownLatch served = new CountDownLatch(1);
        pool.execute(served::countDown);
        assertTrue(served.await(5, TimeUnit.SECONDS), "no worker serves the queue after the fatal error");
        assertEquals(1, fatal.heard().size());
        assertEquals(1, pool.size());
    }
}
