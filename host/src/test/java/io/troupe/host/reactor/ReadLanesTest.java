package io.troupe.host.reactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.troupe.api.net.Connection;
import io.troupe.api.net.ConnectionHandler;
import io.troupe.api.net.ConnectionOptions;
import io.troupe.api.net.Listener;

/**
 * One loop, eight busy connections of group "a" and one of group "b", all holding input when the
 * loop looks: b's bytes are read after at most one slice of a's, not after all of them.
 */
@Timeout(60)
class ReadLanesTest {

    private static final InetSocketAddress ANY_PORT = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    private static final int BUSY = 8;

    private NioReactor reactor;

    @BeforeEach
    void start() throws IOException {
        reactor = new NioReactor(1);
    }

    @AfterEach
    void stop() throws InterruptedException {
        assertTrue(reactor.shutdown(java.time.Duration.ofSeconds(5)), "reactor threads did not end");
    }

    @Test
    void aQuietGroupIsReadAfterAtMostOneSliceOfABusyOne() throws Exception {
        List<String> reads = new CopyOnWriteArrayList<>();
        AtomicInteger opened = new AtomicInteger();
        CountDownLatch allOpen = new CountDownLatch(BUSY + 1);
        List<Connection> connections = new CopyOnWriteArrayList<>();
        Listener listener = reactor.listen(ANY_PORT, connection -> new ConnectionHandler() {
            private String group;

            @Override
            public void onOpen(Connection open) {
                group = opened.incrementAndGet() <= BUSY ? "a" : "b";
                open.fairnessGroup(group);
                connections.add(open);
                allOpen.countDown();
            }

            @Override
            public void onRead(Connection reading, ByteBuffer input) {
                reads.add(group);
                input.position(input.limit());
            }

            @Override
            public void onClosed(Connection closed, Throwable cause) {
            }
        }, ConnectionOptions.DEFAULTS);

        List<SocketChannel> clients = new ArrayList<>();
        List<Thread> writers = new ArrayList<>();
        List<AtomicLong> written = new ArrayList<>();
        try {
            for (int i = 0; i < BUSY + 1; i++) {
                clients.add(SocketChannel.open(listener.address())); // in order: the first eight are "a"
                while (allOpen.getCount() > BUSY - i) {
                    Thread.onSpinWait(); // each accepted before the next connects, so groups follow the order
                }
            }
            assertTrue(allOpen.await(10, TimeUnit.SECONDS));

            // hold the loop while every client's bytes arrive, so that one select finds all of them ready
            CountDownLatch holding = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            connections.get(0).execute(() -> {
                holding.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertTrue(holding.await(10, TimeUnit.SECONDS));
            for (int i = 0; i < BUSY; i++) {
                SocketChannel client = clients.get(i);
                AtomicLong count = new AtomicLong();
                written.add(count);
                Thread writer = new Thread(() -> {
                    ByteBuffer chunk = ByteBuffer.allocate(16 * 1024);
                    try {
                        for (int n = 0; n < 64; n++) {
                            chunk.clear();
                            while (chunk.hasRemaining()) {
                                count.addAndGet(client.write(chunk));
                            }
                        }
                    } catch (IOException e) {
                        // the test closes the sockets while a writer may still block
                    }
                });
                writers.add(writer);
                writer.start();
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (written.stream().anyMatch(count -> count.get() < 192 * 1024) && System.nanoTime() < deadline) {
                Thread.onSpinWait(); // each busy client has at least three slices' worth in flight
            }
            clients.get(BUSY).write(ByteBuffer.wrap("quiet".getBytes()));
            release.countDown();

            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!reads.contains("b") && System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            int firstB = reads.indexOf("b");
            assertTrue(firstB >= 0, "b was read");
            assertTrue(firstB <= 1, "b's bytes came after at most one slice of a's, not " + firstB + ": " + reads);
            assertEquals("a", reads.get(firstB == 0 ? 1 : 0), "and a's slices go on around it");
        } finally {
            for (SocketChannel client : clients) {
                client.close();
            }
            for (Thread writer : writers) {
                writer.join(5000);
            }
        }
    }
}
