package io.troupe.host.reactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.SelectionKey;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.troupe.host.supervise.RecordingFatalAction;

/**
 * An IO loop under failures: a throwing task or IO handler leaves the loop its channels and its queue; a
 * fatal error on the loop goes to the process's fatal action.
 */
@Timeout(30)
class EventLoopFailuresTest {

    private EventLoop loop;
    private RecordingFatalAction fatal;

    @BeforeEach
    void start() throws IOException {
        fatal = RecordingFatalAction.install();
        loop = new EventLoop("failing-loop");
    }

    @AfterEach
    void stop() throws InterruptedException {
        loop.shutdown();
        assertTrue(loop.awaitTermination(Duration.ofSeconds(5)));
        fatal.close();
    }

    @Test
    void aHandlerThatThrowsKeepsItsChannelAndTheLoopKeepsServingIt() throws Exception {
        Pipe pipe = Pipe.open();
        pipe.source().configureBlocking(false);
        BlockingQueue<String> read = new LinkedBlockingQueue<>();
        AtomicInteger events = new AtomicInteger();
        IoHandler handler = new IoHandler() {
            @Override
            public void onReady(int readyOps) {
                ByteBuffer buffer = ByteBuffer.allocate(64);
                try {
                    pipe.source().read(buffer);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                read.add(new String(buffer.array(), 0, buffer.position(), java.nio.charset.StandardCharsets.UTF_8));
                if (events.incrementAndGet() == 1) {
                    throw new IllegalStateException("a handler's bug on the first event");
                }
            }

            @Override
            public void onLoopShutdown() {
                try {
                    pipe.source().close();
                    pipe.sink().close();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        };
        CountDownLatch registered = new CountDownLatch(1);
        loop.execute(() -> {
            try {
                loop.register(pipe.source(), SelectionKey.OP_READ, handler);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            registered.countDown();
        });
        assertTrue(registered.await(5, TimeUnit.SECONDS));
        pipe.sink().write(ByteBuffer.wrap("one".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        assertEquals("one", read.poll(5, TimeUnit.SECONDS));
        pipe.sink().write(ByteBuffer.wrap("two".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        assertEquals("two", read.poll(5, TimeUnit.SECONDS), "the channel is still registered after the failure");
        assertEquals(0, fatal.heard().size());
    }

    @Test
    void tasksQueuedBehindAThrowingTaskRun() throws InterruptedException {
        CountDownLatch after = new CountDownLatch(3);
        loop.execute(after::countDown);
        loop.execute(() -> {
            throw new IllegalStateException("a task's bug");
        });
        loop.execute(after::countDown);
        loop.schedule(() -> {
            throw new IllegalArgumentException("a scheduled task's bug");
        }, Duration.ZERO);
        loop.schedule(after::countDown, Duration.ofMillis(20));
        assertTrue(after.await(5, TimeUnit.SECONDS), "tasks left: " + after.getCount());
        assertTrue(loop.isAlive());
        assertEquals(0, fatal.heard().size());
    }

    @Test
    void anOutOfMemoryErrorInATaskIsFatal() throws InterruptedException {
        loop.execute(() -> {
            long[] tooLarge = new long[Integer.MAX_VALUE]; // a real OutOfMemoryError, thrown by the VM
            tooLarge[0] = 1;
        });
        RecordingFatalAction.Fatal heard = fatal.awaitFirst(5);
        assertEquals("failing-loop", heard.thread());
        assertInstanceOf(OutOfMemoryError.class, heard.error());
        assertTrue(heard.doing().startsWith("running task "), heard.doing());
        assertEquals(1, fatal.heard().size(), "handed over once, though the loop's own catch saw it too");
    }

    @Test
    void aStackOverflowInAHandlerIsFatal() throws Exception {
        Pipe pipe = Pipe.open();
        pipe.source().configureBlocking(false);
        IoHandler deep = new IoHandler() {
            @Override
            public void onReady(int readyOps) {
                recurse(0);
            }

            private int recurse(int depth) {
                return recurse(depth + 1) + 1;
            }

            @Override
            public void onLoopShutdown() {
            }
        };
        loop.execute(() -> {
            try {
                loop.register(pipe.source(), SelectionKey.OP_READ, deep);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        pipe.sink().write(ByteBuffer.wrap(new byte[] {1}));
        RecordingFatalAction.Fatal heard = fatal.awaitFirst(5);
        assertInstanceOf(StackOverflowError.class, heard.error());
        assertTrue(heard.doing().startsWith("handling IO events of "), heard.doing());
        pipe.sink().close();
        pipe.source().close();
    }
}
