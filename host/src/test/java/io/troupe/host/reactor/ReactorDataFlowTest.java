package io.troupe.host.reactor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.troupe.api.net.Connection;
import io.troupe.api.net.ConnectionOptions;
import io.troupe.api.net.Listener;
import io.troupe.testsupport.TestClient;

/** Bytes through real loopback sockets: echo, concurrent writers, backpressure, buffer limits. */
@Timeout(60)
class ReactorDataFlowTest {

    private static final InetSocketAddress ANY_PORT = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    private NioReactor reactor;

    @BeforeEach
    void start() throws IOException {
        reactor = new NioReactor(2);
    }

    @AfterEach
    void stop() throws InterruptedException {
        assertTrue(reactor.shutdown(java.time.Duration.ofSeconds(5)), "reactor threads did not end");
    }

    /** Echoes every byte back (a copy, since the input buffer is reused). */
    static class EchoHandler extends RecordingHandler {
        @Override
        protected void received(Connection connection, ByteBuffer input) {
            ByteBuffer copy = ByteBuffer.allocate(input.remaining());
            copy.put(input).flip();
            connection.write(copy);
        }
    }

    @Test
    void anEchoHandlerRoundTripsDataForManyConcurrentClients() throws Exception {
        Listener listener = reactor.listen(ANY_PORT, connection -> new EchoHandler(), ConnectionOptions.DEFAULTS);
        int clients = 40;
        int size = 100 * 1024;
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<byte[][]>> results = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                int seed = c;
                results.add(pool.submit(() -> {
                    byte[] sent = TestClient.pattern(size, seed);
                    try (TestClient client = TestClient.connect(listener.address())) {
                        Random random = new Random(seed);
                        for (int offset = 0; offset < size; ) {
                            int chunk = Math.min(size - offset, 1 + random.nextInt(8192));
                            client.send(java.util.Arrays.copyOfRange(sent, offset, offset + chunk));
                            offset += chunk;
                        }
                        return new byte[][] {sent, client.readExactly(size)};
                    }
                }));
            }
            for (Future<byte[][]> result : results) {
                byte[][] sentAndReceived = result.get(30, TimeUnit.SECONDS);
                assertArrayEquals(sentAndReceived[0], sentAndReceived[1]);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void writesFromManyThreadsArriveIntactAndInPerThreadOrder() throws Exception {
        HandlerQueue<RecordingHandler> handlers = new HandlerQueue<>(RecordingHandler::new);
        Listener listener = reactor.listen(ANY_PORT, handlers, ConnectionOptions.DEFAULTS);
        int writers = 8;
        int records = 5_000;
        try (TestClient client = TestClient.connect(listener.address())) {
            Connection connection = handlers.next().opened.get(5, TimeUnit.SECONDS);
            List<Thread> threads = startTogether(writers, "test-writer-", writer -> {
                for (int i = 0; i < records; i++) {
                    connection.write(ByteBuffer.allocate(8).putInt(writer).putInt(i).flip());
                }
            });

            ByteBuffer received = ByteBuffer.wrap(client.readExactly(writers * records * 8));
            int[] next = new int[writers];
            while (received.hasRemaining()) {
                int writer = received.getInt();
                int sequence = received.getInt();
                assertEquals(next[writer], sequence, "writer " + writer + " out of order");
                next[writer]++;
            }
            for (int w = 0; w < writers; w++) {
                assertEquals(records, next[w]);
            }
            for (Thread thread : threads) {
                thread.join(5_000);
            }
        }
    }

    @Test
    void groupsWrittenFromManyThreadsAndFromTheLoopArriveWholeAndInPerWriterOrder() throws Exception {
        HandlerQueue<RecordingHandler> handlers = new HandlerQueue<>(RecordingHandler::new);
        Listener listener = reactor.listen(ANY_PORT, handlers, ConnectionOptions.DEFAULTS);
        int writers = 5; // the last one writes on the connection's loop, where a group may go out directly
        int records = 4_000;
        try (TestClient client = TestClient.connect(listener.address())) {
            Connection connection = handlers.next().opened.get(5, TimeUnit.SECONDS);
            List<Thread> threads = startTogether(writers, "test-group-writer-", writer -> {
                for (int i = 0; i < records; i++) {
                    ByteBuffer[] group = {ByteBuffer.allocate(4).putInt(writer).flip(),
                        ByteBuffer.allocate(4).putInt(i).flip(), ByteBuffer.allocate(0),
                        ByteBuffer.allocate(4).putInt(writer * 1_000_003 + i).flip()};
                    if (writer == writers - 1) {
                        connection.execute(() -> connection.write(group));
                    } else {
                        connection.write(group);
                    }
                }
            });

            ByteBuffer received = ByteBuffer.wrap(client.readExactly(writers * records * 12));
            int[] next = new int[writers];
            while (received.hasRemaining()) {
                int writer = received.getInt();
                int sequence = received.getInt();
                assertEquals(writer * 1_000_003 + sequence, received.getInt(), "a group split or interleaved");
                assertEquals(next[writer], sequence, "writer " + writer + " out of order");
                next[writer]++;
            }
            for (int w = 0; w < writers; w++) {
                assertEquals(records, next[w]);
            }
            for (Thread thread : threads) {
                thread.join(5_000);
            }
        }
    }

    /** Starts {@code count} threads named {@code prefix}N that run {@code body} with their number, all at once. */
    private static List<Thread> startTogether(int count, String prefix, IntConsumer body) {
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int n = 0; n < count; n++) {
            int number = n;
            threads.add(new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                body.accept(number);
            }, prefix + n));
        }
        threads.forEach(Thread::start);
        go.countDown();
        return threads;
    }

    @Test
    void aLargeWriteToASlowReaderCompletesAndOnWritableFiresAfterTheHighWaterMark() throws Exception {
        ConnectionOptions options = new ConnectionOptions(256 * 1024, 64 * 1024, 64L << 20, 1 << 20);
        int size = 8 << 20;
        byte[] payload = TestClient.pattern(size, 5);
        CompletableFuture<Boolean> writableAfterWriting = new CompletableFuture<>();
        CountDownLatch writable = new CountDownLatch(1);
        RecordingHandler handler = new RecordingHandler() {
            @Override
            public void onOpen(Connection connection) {
                super.onOpen(connection);
                for (int offset = 0; offset < size; offset += 64 * 1024) {
                    connection.write(ByteBuffer.wrap(payload, offset, 64 * 1024));
                }
                writableAfterWriting.complete(connection.isWritable());
            }

            @Override
            public void onWritable(Connection connection) {
                super.onWritable(connection);
                writable.countDown();
            }
        };
        Listener listener = reactor.listen(ANY_PORT, connection -> handler, options);
        try (TestClient client = TestClient.connect(listener.address(), 16 * 1024)) {
            assertFalse(writableAfterWriting.get(5, TimeUnit.SECONDS), "8 MiB queued must pass the high-water mark");
            assertEquals(1, writable.getCount(), "nothing read yet, so no onWritable");
            assertArrayEquals(payload, client.readExactly(size));
            assertTrue(writable.await(5, TimeUnit.SECONDS), "onWritable never fired");
            assertEquals(1, handler.writableCalls.get());
            assertEquals(0, handler.opened.get().pendingOutputBytes());
            assertEquals(List.of(), handler.misplacedCallbacks);
        }
    }

    /** Floods when it reads 'F'; echoes anything else. */
    static final class FloodOrEchoHandler extends EchoHandler {
        @Override
        protected void received(Connection connection, ByteBuffer input) {
            if (input.get(input.position()) == 'F') {
                input.position(input.limit());
                ByteBuffer chunk = ByteBuffer.wrap(new byte[256 * 1024]);
                for (int i = 0; i < 64 && connection.isOpen(); i++) {
                    connection.write(chunk.duplicate());
                }
            } else {
                super.received(connection, input);
            }
        }
    }

    @Test
    void aClientThatNeverReadsIsCutOffOncePendingOutputPassesTheLimitWhileOthersKeepWorking() throws Exception {
        ConnectionOptions options = new ConnectionOptions(64 * 1024, 16 * 1024, 1 << 20, 1 << 20);
        HandlerQueue<FloodOrEchoHandler> handlers = new HandlerQueue<>(FloodOrEchoHandler::new);
        Listener listener = reactor.listen(ANY_PORT, handlers, options);
        // One at a time: handlers of connections on different loops are created in no particular order.
        try (TestClient flooded = TestClient.connect(listener.address(), 16 * 1024)) {
            FloodOrEchoHandler floodedHandler = handlers.next();
            TestClient healthy = TestClient.connect(listener.address());
            FloodOrEchoHandler healthyHandler = handlers.next();
            flooded.send("F");

            Throwable cause = floodedHandler.closed.get(10, TimeUnit.SECONDS);
            ConnectionLimitException limit = assertInstanceOf(ConnectionLimitException.class, cause);
            assertEquals(ConnectionLimitException.Limit.MAX_PENDING_OUTPUT, limit.limit());
            assertTrue(limit.getMessage().contains("slow consumer"), limit.getMessage());
            assertEquals(0, floodedHandler.opened.get().pendingOutputBytes(), "the dropped output is released");

            healthy.send("still here");
            assertEquals("still here", healthy.readString(10));
            assertFalse(healthyHandler.closed.isDone());
            healthy.close();
        }
    }

    /** Consumes only whole length-prefixed frames, answering each with "ok"; records the buffer sizes. */
    static final class FrameHandler extends RecordingHandler {
        final List<Integer> capacities = new CopyOnWriteArrayList<>();

        @Override
        protected void received(Connection connection, ByteBuffer input) {
            capacities.add(input.capacity());
            while (input.remaining() >= 4 && input.remaining() >= 4 + input.getInt(input.position())) {
                int length = input.getInt();
                input.position(input.position() + length);
                connection.write(ByteBuffer.wrap("ok".getBytes()));
            }
        }
    }

    private static byte[] frame(int length) {
        return ByteBuffer.allocate(4 + length).putInt(length).put(TestClient.pattern(length, 1)).array();
    }

    @Test
    void theConnectionsOwnBufferGrowsUntilALargeMessageIsCompleteAndIsLetGoAfterwards() throws Exception {
        HandlerQueue<FrameHandler> handlers = new HandlerQueue<>(FrameHandler::new);
        Listener listener = reactor.listen(ANY_PORT, handlers, ConnectionOptions.DEFAULTS);
        try (TestClient client = TestClient.connect(listener.address())) {
            FrameHandler handler = handlers.next();
            client.send(frame(200_000));
            assertEquals("ok", client.readString(2));
            int largest = handler.capacities.stream().mapToInt(Integer::intValue).max().orElseThrow();
            // what the first read left (at most the loop's 64 KiB, however much of the frame had
            // arrived) is kept with room for as much again, then doubled only while full: so the
            // buffer ends at least as large as the frame and less than twice as large
            assertTrue(largest >= 200_004 && largest < 2 * 200_004,
                    "the connection's own buffer grew until the 200 004-byte frame fit, no further: " + largest);

            client.send(frame(10));
            assertEquals("ok", client.readString(2));
            assertEquals(EventLoop.READ_BUFFER_BYTES, handler.capacities.get(handler.capacities.size() - 1),
                    "with nothing left over, the next message is read into the loop's shared buffer");
        }
    }

    @Test
    void exceedingMaxInputBufferClosesTheConnection() throws Exception {
        ConnectionOptions options = new ConnectionOptions(64 * 1024, 16 * 1024, 1 << 20, 16 * 1024);
        HandlerQueue<RecordingHandler> handlers = new HandlerQueue<>(() -> new RecordingHandler() {
            @Override
            protected void received(Connection connection, ByteBuffer input) {
                // consumes nothing
            }
        });
        Listener listener = reactor.listen(ANY_PORT, handlers, options);
        try (TestClient client = TestClient.connect(listener.address())) {
            RecordingHandler handler = handlers.next();
            try {
                client.send(new byte[64 * 1024]);
            } catch (IOException closedMeanwhile) {
                // the server may cut us off before everything is sent
            }
            ConnectionLimitException limit = assertInstanceOf(ConnectionLimitException.class,
                    handler.closed.get(10, TimeUnit.SECONDS));
            assertEquals(ConnectionLimitException.Limit.MAX_INPUT_BUFFER, limit.limit());
            assertTrue(client.seesEndOfStream());
        }
    }
}
