package io.troupe.host.reactor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.troupe.api.net.Cancellable;
import io.troupe.api.net.Connection;
import io.troupe.api.net.ConnectionOptions;
import io.troupe.api.net.Listener;
import io.troupe.testsupport.TestClient;

/** Opening, suspending, half-closing, closing and failing connections on real loopback sockets. */
@Timeout(60)
class ConnectionLifecycleTest {

    private static final InetSocketAddress ANY_PORT = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    /** How long a test waits for something that must NOT happen. */
    private static final long QUIET_MILLIS = 200;

    private NioReactor reactor;

    private NioReactor reactor(int ioLoops) throws IOException {
        reactor = new NioReactor(ioLoops);
        return reactor;
    }

    @AfterEach
    void stop() throws InterruptedException {
        if (reactor != null) {
            assertTrue(reactor.shutdown(Duration.ofSeconds(5)), "reactor threads did not end");
        }
    }

    /** Waits until every task queued on the connection's loop so far has run. */
    private static void syncWithLoop(Connection connection) throws InterruptedException {
        CountDownLatch passed = new CountDownLatch(1);
        connection.execute(passed::countDown);
        assertTrue(passed.await(5, TimeUnit.SECONDS), "the loop did not run a task within 5 s");
    }

    private static ByteBuffer ascii(String text) {
        return ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void suspendReadingStopsOnReadUntilResumeReading() throws Exception {
        AtomicReference<CountDownLatch> reads = new AtomicReference<>(new CountDownLatch(1));
        HandlerQueue<RecordingHandler> handlers = new HandlerQueue<>(() -> new RecordingHandler() {
            @Override
            protected void received(Connection connection, ByteBuffer input) {
                super.received(connection, input);
                reads.get().countDown();
            }
        });
        Listener listener = reactor(1).listen(ANY_PORT, handlers, ConnectionOptions.DEFAULTS);
        try (TestClient client = TestClient.connect(listener.address())) {
            RecordingHandler handler = handlers.next();
            Connection connection = handler.opened.get(5, TimeUnit.SECONDS);
            client.send("a");
            assertTrue(reads.get().await(5, TimeUnit.SECONDS));

            connection.suspendReading();
            syncWithLoop(connection);
            reads.set(new CountDownLatch(1));
            client.send("more");
            assertFalse(reads.get().await(QUIET_MILLIS, TimeUnit.MILLISECONDS), "onRead while suspended");

            connection.resumeReading();
            assertTrue(reads.get().await(5, TimeUnit.SECONDS), "no onRead after resumeReading");
            assertEquals("amore", new String(handler.bytes(), StandardCharsets.US_ASCII));
        }
    }

    @Test
    void bytesLeftUnconsumedWhileSuspendedArePresentedAgainOnResume() throws Exception {
        CountDownLatch secondLook = new CountDownLatch(1);
        AtomicReference<String> seenAgain = new AtomicReference<>();
        HandlerQueue<RecordingHandler> handlers = new HandlerQueue<>(() -> new RecordingHandler() {
            private boolean first = true;

            @Override
            protected void received(Connection connection, ByteBuffer input) {
                if (first) {
                    first = false;
                    connection.suspendReading(); // backpressure: leave the bytes for later
                    connection.schedule(connection::resumeReading, Duration.ofMillis(20));
                } else {
                    seenAgain.set(StandardCharsets.US_ASCII.decode(input).toString());
                    secondLook.countDown();
                }
            }
        });
        Listener listener = reactor(1).listen(ANY_PORT, handlers, ConnectionOptions.DEFAULTS);
        try (TestClient client = TestClient.connect(listener.address())) {
            handlers.next();
            client.send("pending");
            assertTrue(secondLook.await(5, TimeUnit.SECONDS), "the unconsumed bytes never came back");
            assertEquals("pending", seenAgain.get());
        }
    }

    @Test
    void halfCloseLetsTheServerAnswerAfterTheClientShutsItsOutput() throws Exception {
        HandlerQueue<RecordingHandler> handlers = new HandlerQueue<>(() -> new RecordingHandler() {
            @Override
            public void onInputShutdown(Connection connection) {
                super.onInputShutdown(connection);
                connection.write(ascii("got " + bytes().length + " bytes"));
                connection.close();
            }
        });
        Listener listener = reactor(2).listen(ANY_PORT, handlers, ConnectionOptions.DEFAULTS);
        try (TestClient client = TestClient.connect(listener.address())) {
            RecordingHandler handler = handlers.next();
            client.send("question");
            client.shutdownOutput();
            assertEquals("got 8 bytes", new String(client.readToEnd(), StandardCharsets.US_ASCII));
            assertTrue(handler.inputShutdown.isDone());
            assertNull(handler.closed.get(5, TimeUnit.SECONDS));
        }
    }

    @Test
    void theServerCanShutItsOutputAndKeepReading() throws Exception {
        HandlerQueue<RecordingHandler> handlers = new HandlerQueue<>(() -> new RecordingHandler() {
            @Override
            public void onOpen(Connection connection) {
                super.onOpen(connection);
                connection.write(ascii("bye"));
                connection.shutdownOutput();
            }
        });
        Listener listener = reactor(1).listen(ANY_PORT, handlers, ConnectionOptions.DEFAULTS);
        try (TestClient client = TestClient.connect(listener.address())) {
            RecordingHandler handler = handlers.next();
            assertEquals("bye", new String(client.readToEnd(), StandardCharsets.US_ASCII), "FIN after the output");
            client.send("late words");
            client.shutdownOutput();
            assertNull(handler.closed.get(5, TimeUnit.SECONDS), "both directions shut: closed in order");
            assertEquals("late words", new String(handler.bytes(), StandardCharsets.US_ASCII));
        }
    }

    @Test
    void closeFlushesPendingOutputBeforeClosing() throws Exception {
        int size = 16 << 20; // more than loopback socket buffers take (tcp_wmem allows 4 MiB and more)
        byte[] payload = TestClient.pattern(size, 9);
        CompletableFuture<Long> pendingAtClose = new CompletableFuture<>();
        HandlerQueue<RecordingHandler> handlers = new HandlerQueue<>(() -> new RecordingHandler() {
            @Override
            public void onOpen(Connection connection) {
                super.onOpen(connection);
                for (int offset = 0; offset < size; offset += 1 << 20) {
                    connection.write(ByteBuffer.wrap(payload, offset, 1 << 20));
                }
                pendingAtClose.complete(connection.pendingOutputBytes());
                connection.close();
                connection.write(ascii("ignored: written after close"));
            }
        });
        Listener listener = reactor(1).listen(ANY_PORT, handlers, ConnectionOptions.DEFAULTS);
        try (TestClient client = TestClient.connect(listener.address(), 16 * 1024)) {
            RecordingHandler handler = handlers.next();
            assertTrue(pendingAtClose.get(5, TimeUnit.SECONDS) > 0, "the test needs output still pending at close()");
            assertArrayEquals(payload, client.readToEnd());
            assertNull(handler.closed.get(5, TimeUnit.SECONDS));
        }
    }

    @Test
    void abortDropsPendingOutput() throws Exception {
        int size = 16 << 20;
        AtomicLong pendingAtAbort = new AtomicLong();
        HandlerQueue<RecordingHandler> handlers = new HandlerQueue<>(() -> new RecordingHandler() {
            @Override
            public void onOpen(Connection connection) {
                super.onOpen(connection);
                connection.write(ByteBuffer.allocate(size));
                pendingAtAbort.set(connection.pendingOutputBytes());
                connection.abort();
            }
        });
        Listener listener = reactor(1).listen(ANY_PORT, handlers, ConnectionOptions.DEFAULTS);
        try (TestClient client = TestClient.connect(listener.address(), 16 * 1024)) {
            RecordingHandler handler = handlers.next();
            assertNull(handler.closed.get(5, TimeUnit.SECONDS));
            assertTrue(pendingAtAbort.get() > 0, "the test needs output still pending at abort()");
            long received = client.drainToEnd();
            assertTrue(received < size, "received " + received + " of " + size + " bytes");
            Connection connection = handler.opened.get();
            assertEquals(0, connection.pendingOutputBytes());
            assertFalse(connection.isOpen());
        }
    }

    @Test
    void onClosedRunsExactlyOnceWithTheCauseOnResetAndNullOnAnOrderlyClose() throws Exception {
        HandlerQueue<RecordingHandler> handlers = new HandlerQueue<>(() -> new RecordingHandler() {
            @Override
            public void onInputShutdown(Connection connection) {
                super.onInputShutdown(connection);
                connection.close();
            }
        });
        Listener listener = reactor(1).listen(ANY_PORT, handlers, ConnectionOptions.DEFAULTS);

        TestClient resetting = TestClient.connect(listener.address());
        RecordingHandler reset = handlers.next();
        Connection resetConnection = reset.opened.get(5, TimeUnit.SECONDS);
        resetting.reset();
        assertInstanceOf(IOException.class, reset.closed.get(5, TimeUnit.SECONDS));

        TestClient orderly = TestClient.connect(listener.address());
        RecordingHandler closing = handlers.next();
        Connection orderlyConnection = closing.opened.get(5, TimeUnit.SECONDS);
        orderly.close();
        assertNull(closing.closed.get(5, TimeUnit.SECONDS));

        resetConnection.close();
        resetConnection.abort();
        orderlyConnection.abort();
        syncWithLoop(resetConnection);
        syncWithLoop(resetConnection); // tasks queued by the calls above have run too
        assertEquals(1, reset.closedCalls.get());
        assertEquals(1, closing.closedCalls.get());
        assertFalse(resetConnection.isOpen());
        assertFalse(orderlyConnection.isOpen());
    }

    @Test
    void callbacksRunOnTheConnectionsLoopAndConnectionsAreSpreadRoundRobin() throws Exception {
        HandlerQueue<RecordingHandler> handlers = new HandlerQueue<>(() -> new RecordingHandler() {
            @Override
            public void onInputShutdown(Connection connection) {
                super.onInputShutdown(connection);
                connection.close();
            }
        });
        Listener listener = reactor(2).listen(ANY_PORT, handlers, ConnectionOptions.DEFAULTS);
        List<RecordingHandler> seen = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            try (TestClient client = TestClient.connect(listener.address())) {
                RecordingHandler handler = handlers.next();
                handler.opened.get(5, TimeUnit.SECONDS);
                client.send("ping");
                seen.add(handler);
            }
        }
        List<String> loops = new ArrayList<>();
        for (RecordingHandler handler : seen) {
            handler.closed.get(5, TimeUnit.SECONDS);
            assertEquals(List.of(), handler.misplacedCallbacks);
            assertEquals(1, handler.callbackThreads.stream().distinct().count(), handler.callbackThreads.toString());
            loops.add(handler.callbackThreads.get(0));
        }
        assertEquals(List.of("troupe-io-1", "troupe-io-2", "troupe-io-1", "troupe-io-2"), loops);
    }

    @Test
    void scheduleRunsOnTheLoopAndCancelPreventsIt() throws Exception {
        HandlerQueue<RecordingHandler> handlers = new HandlerQueue<>(RecordingHandler::new);
        Listener listener = reactor(1).listen(ANY_PORT, handlers, ConnectionOptions.DEFAULTS);
        try (TestClient client = TestClient.connect(listener.address())) {
            Connection connection = handlers.next().opened.get(5, TimeUnit.SECONDS);
            AtomicBoolean cancelledRan = new AtomicBoolean();
            Cancellable cancelled = connection.schedule(() -> cancelledRan.set(true), Duration.ofMillis(20));
            CompletableFuture<Boolean> ranInLoop = new CompletableFuture<>();
            connection.schedule(() -> {
                ranInLoop.complete(connection.inLoop() && Thread.currentThread().getName().startsWith("troupe-io-"));
                connection.write(ascii("tick"));
            }, Duration.ofMillis(50));
            assertTrue(cancelled.cancel());

            assertTrue(ranInLoop.get(5, TimeUnit.SECONDS));
            assertEquals("tick", client.readString(4));
            assertFalse(cancelledRan.get(), "ran although cancelled before its (earlier) deadline");
        }
    }

    @Test
    void aHandlerThatThrowsOnlyClosesItsOwnConnection() throws Exception {
        IllegalStateException failure = new IllegalStateException("boom (expected by the test)");
        HandlerQueue<RecordingHandler> handlers = new HandlerQueue<>(() -> new ReactorDataFlowTest.EchoHandler() {
            @Override
            protected void received(Connection connection, ByteBuffer input) {
                if (StandardCharsets.US_ASCII.decode(input.duplicate()).toString().contains("boom")) {
                    throw failure;
                }
                super.received(connection, input);
            }
        });
        Listener listener = reactor(1).listen(ANY_PORT, handlers, ConnectionOptions.DEFAULTS);
        try (TestClient failing = TestClient.connect(listener.address());
                TestClient other = TestClient.connect(listener.address())) {
            RecordingHandler failingHandler = handlers.next();
            RecordingHandler otherHandler = handlers.next();
            other.send("before");
            assertEquals("before", other.readString(6));

            failing.send("boom");
            assertSame(failure, failingHandler.closed.get(5, TimeUnit.SECONDS));
            assertTrue(failing.seesEndOfStream());

            other.send("after");
            assertEquals("after", other.readString(5));
            assertFalse(otherHandler.closed.isDone());
        }
    }

    @Test
    void closingAListenerReleasesThePortWhileExistingConnectionsContinue() throws Exception {
        HandlerQueue<RecordingHandler> handlers = new HandlerQueue<>(ReactorDataFlowTest.EchoHandler::new);
        NioReactor reactor = reactor(2);
        Listener listener = reactor.listen(ANY_PORT, handlers, ConnectionOptions.DEFAULTS);
        InetSocketAddress address = listener.address();
        assertTrue(address.getPort() > 0);
        try (TestClient existing = TestClient.connect(address)) {
            handlers.next().opened.get(5, TimeUnit.SECONDS);
            listener.close();
            listener.close(); // idempotent

            Listener rebound = reactor.listen(address, handlers, ConnectionOptions.DEFAULTS);
            assertEquals(address, rebound.address());
            existing.send("still open");
            assertEquals("still open", existing.readString(10));
            try (TestClient fresh = TestClient.connect(address)) {
                handlers.next().opened.get(5, TimeUnit.SECONDS);
                fresh.send("new");
                assertEquals("new", fresh.readString(3));
            }
            rebound.close();
        }
    }

    @Test
    void bindingAnAddressInUseFailsNamingTheAddress() throws Exception {
        Listener first = reactor(1).listen(ANY_PORT, connection -> new RecordingHandler(), ConnectionOptions.DEFAULTS);
        BindException failure = assertThrows(BindException.class,
                () -> reactor.listen(first.address(), connection -> new RecordingHandler(), ConnectionOptions.DEFAULTS));
        assertTrue(failure.getMessage().contains(first.address().toString()), failure.getMessage());
    }

    @Test
    void shutdownClosesEverythingAndTheThreadsEnd() throws Exception {
        HandlerQueue<RecordingHandler> handlers = new HandlerQueue<>(RecordingHandler::new);
        NioReactor reactor = reactor(2);
        Listener listener = reactor.listen(ANY_PORT, handlers, ConnectionOptions.DEFAULTS);
        List<TestClient> clients = new ArrayList<>();
        List<RecordingHandler> opened = new ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) {
                clients.add(TestClient.connect(listener.address()));
                RecordingHandler handler = handlers.next();
                handler.opened.get(5, TimeUnit.SECONDS);
                opened.add(handler);
            }
            List<EventLoop> loops = reactor.loops();
            assertEquals(List.of("troupe-acceptor", "troupe-io-1", "troupe-io-2"),
                    loops.stream().map(EventLoop::name).toList());
            assertTrue(reactor.shutdown(Duration.ofSeconds(5)));
            assertTrue(loops.stream().allMatch(EventLoop::isTerminated));

            for (RecordingHandler handler : opened) {
                assertTrue(handler.closed.isDone(), "shutdown returned before onClosed");
                assertNull(handler.closed.get());
                assertEquals(1, handler.closedCalls.get());
            }
            for (TestClient client : clients) {
                assertTrue(client.seesEndOfStream());
            }
            assertThrows(IOException.class, () -> TestClient.connect(listener.address()).close(),
                    "the port no longer accepts");
            assertTrue(Thread.getAllStackTraces().keySet().stream()
                    .noneMatch(thread -> thread.getName().startsWith("troupe-")), "reactor threads still alive");
        } finally {
            for (TestClient client : clients) {
                client.close();
            }
        }
    }
}
