package io.troupe.host.reactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.SelectionKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.troupe.api.net.Cancellable;
import io.troupe.host.dispatch.RuntimeThread;

@Timeout(30)
class EventLoopTest {

    private EventLoop loop;

    @BeforeEach
    void start() throws IOException {
        loop = new EventLoop("test-loop");
    }

    @AfterEach
    void stop() throws InterruptedException {
        loop.shutdown();
        assertTrue(loop.awaitTermination(Duration.ofSeconds(5)));
    }

    @Test
    void runsTasksFromManyThreadsOnTheLoopInPerThreadOrder() throws InterruptedException {
        int threads = 8;
        int perThread = 20_000;
        CountDownLatch done = new CountDownLatch(threads * perThread);
        int[] lastSeen = new int[threads]; // loop-confined
        java.util.Arrays.fill(lastSeen, -1);
        List<String> problems = new CopyOnWriteArrayList<>();
        List<Thread> producers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int producer = t;
            producers.add(new Thread(() -> {
                for (int i = 0; i < perThread; i++) {
                    int sequence = i;
                    loop.execute(() -> {
                        if (!loop.inLoop() || !RuntimeThread.isCurrent()) {
                            problems.add("ran off the loop on " + Thread.currentThread().getName());
                        }
                        if (lastSeen[producer] != sequence - 1) {
                            problems.add("producer " + producer + ": " + sequence + " after " + lastSeen[producer]);
                        }
                        lastSeen[producer] = sequence;
                        done.countDown();
                    });
                }
            }));
        }
        producers.forEach(Thread::start);
        assertTrue(done.await(20, TimeUnit.SECONDS), "tasks left: " + done.getCount());
        assertEquals(List.of(), problems);
    }

    @Test
    void aTaskQueuedOnTheLoopRunsLaterNotInline() throws Exception {
        CompletableFuture<List<String>> order = new CompletableFuture<>();
        loop.execute(() -> {
            List<String> seen = new ArrayList<>();
            loop.execute(() -> {
                seen.add("queued");
                order.complete(seen);
            });
            seen.add("caller");
        });
        assertEquals(List.of("caller", "queued"), order.get(5, TimeUnit.SECONDS));
    }

    @Test
    void scheduledTasksRunOnTheLoopInDeadlineOrder() throws Exception {
        List<String> fired = new CopyOnWriteArrayList<>();
        CountDownLatch both = new CountDownLatch(2);
        loop.schedule(() -> {
            fired.add("late@" + loop.inLoop());
            both.countDown();
        }, Duration.ofMillis(60));
        loop.schedule(() -> {
            fired.add("early@" + loop.inLoop());
            both.countDown();
        }, Duration.ofMillis(20));
        assertTrue(both.await(5, TimeUnit.SECONDS));
        assertEquals(List.of("early@true", "late@true"), fired);
    }

    @Test
    void cancelPreventsAScheduledTaskAndReportsWhetherItWasPending() throws Exception {
        AtomicBoolean cancelledRan = new AtomicBoolean();
        Cancellable cancelled = loop.schedule(() -> cancelledRan.set(true), Duration.ofMillis(30));
        assertTrue(cancelled.cancel());
        assertFalse(cancelled.cancel(), "already cancelled");

        CountDownLatch later = new CountDownLatch(1);
        Cancellable ran = loop.schedule(later::countDown, Duration.ofMillis(60));
        assertTrue(later.await(5, TimeUnit.SECONDS));
        assertFalse(cancelledRan.get(), "a cancelled task never runs, even after its deadline");
        assertFalse(ran.cancel(), "too late: it has run");
    }

    @Test
    void aFailingTaskIsLoggedAndTheLoopContinues() throws InterruptedException {
        loop.execute(() -> {
            throw new IllegalStateException("boom (expected by the test)");
        });
        loop.schedule(() -> {
            throw new IllegalStateException("scheduled boom (expected by the test)");
        }, Duration.ZERO);
        CountDownLatch after = new CountDownLatch(2);
        loop.execute(after::countDown);
        loop.schedule(after::countDown, Duration.ofMillis(10));
        assertTrue(after.await(5, TimeUnit.SECONDS));
    }

    @Test
    void theHeartbeatAdvancesWithEveryIteration() throws InterruptedException {
        long before = loop.lastIterationNanos();
        for (int i = 0; i < 3; i++) {
            CountDownLatch ran = new CountDownLatch(1);
            loop.execute(ran::countDown);
            assertTrue(ran.await(5, TimeUnit.SECONDS));
        }
        assertTrue(loop.lastIterationNanos() - before > 0);
    }

    @Test
    void loopConfinedCodeRefusesOtherThreads() {
        assertFalse(loop.inLoop());
        assertThrows(IllegalStateException.class, loop::assertInLoop);
    }

    @Test
    void shutdownRunsTheTasksAlreadyQueuedThenEndsTheThread() throws InterruptedException {
        AtomicInteger ran = new AtomicInteger();
        CountDownLatch blocker = new CountDownLatch(1);
        loop.execute(() -> {
            try {
                blocker.await(5, TimeUnit.SECONDS); // hold the loop so that the next tasks stay queued
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        for (int i = 0; i < 100; i++) {
            loop.execute(ran::incrementAndGet);
        }
        loop.shutdown();
        blocker.countDown();
        assertTrue(loop.awaitTermination(Duration.ofSeconds(5)));
        assertTrue(loop.isTerminated());
        assertEquals(100, ran.get());
        loop.execute(ran::incrementAndGet);
        assertEquals(100, ran.get(), "tasks after termination are dropped");
    }

    /**
     * The request/answer pattern the spin is for: the loop reads (here from a pipe), another thread
     * answers with a task. The answers come before, at and after the end of the loop's spin, and
     * each must run at once: a wake-up lost there would leave it waiting for the select's one-second
     * timeout.
     */
    @Test
    void answersFromOtherThreadsRunPromptlyWhetherTheLoopSpinsOrSelects() throws Exception {
        EventLoop spinning = new EventLoop("test-spin-loop", Duration.ofNanos(20_000));
        Pipe pipe = Pipe.open();
        ExecutorService answerer = Executors.newSingleThreadExecutor();
        try {
            pipe.source().configureBlocking(false);
            AtomicInteger round = new AtomicInteger();
            AtomicReference<CountDownLatch> answered = new AtomicReference<>();
            ByteBuffer readBuffer = ByteBuffer.allocate(16);
            IoHandler reader = new IoHandler() {
                @Override
                public void onReady(int readyOps) {
                    try {
                        readBuffer.clear();
                        pipe.source().read(readBuffer);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    long delay = round.get() % 41 * 1_000L; // 0 to 40 µs
                    CountDownLatch latch = answered.get();
                    answerer.execute(() -> {
                        long deadline = System.nanoTime() + delay;
                        while (System.nanoTime() - deadline < 0) {
                            Thread.onSpinWait();
                        }
                        spinning.execute(latch::countDown);
                    });
                }

                @Override
                public void onLoopShutdown() {
                }
            };
            CompletableFuture<Void> registered = new CompletableFuture<>();
            spinning.execute(() -> {
                try {
                    spinning.register(pipe.source(), SelectionKey.OP_READ, reader);
                    registered.complete(null);
                } catch (IOException e) {
                    registered.completeExceptionally(e);
                }
            });
            registered.get(5, TimeUnit.SECONDS);
            ByteBuffer one = ByteBuffer.allocate(1);
            for (int i = 0; i < 5_000; i++) {
                round.set(i);
                CountDownLatch latch = new CountDownLatch(1);
                answered.set(latch);
                one.clear();
                pipe.sink().write(one);
                assertTrue(latch.await(500, TimeUnit.MILLISECONDS), "the answer of round " + i + " waited");
            }
        } finally {
            answerer.shutdownNow();
            spinning.shutdown();
            assertTrue(spinning.awaitTermination(Duration.ofSeconds(5)));
            pipe.sink().close();
            pipe.source().close();
        }
    }

    @Test
    void refusesANegativeSpin() {
        assertThrows(IllegalArgumentException.class, () -> new EventLoop("test-bad-loop", Duration.ofNanos(-1)));
    }
}
