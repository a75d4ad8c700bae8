package io.troupe.host.reactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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
 * A peer that sends and does not read: every read of it is answered with four times as many bytes,
 * so its unread output passes the high-water mark, and the connection must then not be read until
 * that output has drained to the low-water mark. Checked as an invariant at every read (the pending
 * output is never above the high-water mark when a read is handed over), then everything flows once
 * the peer reads, with nothing lost.
 */
@Timeout(120)
class OutputBackpressureTest {

    private static final InetSocketAddress ANY_PORT = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    private static final int HIGH = 64 * 1024;
    private static final int LOW = 16 * 1024;
    private static final int ANSWER_BYTES = 4 * 1024;
    private static final int SENT = 8 * 1024 * 1024;

    private NioReactor reactor;

    @BeforeEach
    void start() throws IOException {
        reactor = new NioReactor(1);
    }

    @AfterEach
    void stop() throws InterruptedException {
        assertTrue(reactor.shutdown(Duration.ofSeconds(5)), "reactor threads did not end");
    }

    @Test
    void aConnectionWhoseRepliesAreNotReadIsNotReadEither() throws Exception {
        AtomicLong received = new AtomicLong();
        AtomicLong answered = new AtomicLong();
        AtomicLong mostPendingAtARead = new AtomicLong();
        CountDownLatch passedHighWater = new CountDownLatch(1);
        CountDownLatch allReceived = new CountDownLatch(1);
        ConnectionOptions options = new ConnectionOptions(HIGH, LOW, 256L * 1024 * 1024, 2 * 1024 * 1024);
        Listener listener = reactor.listen(ANY_PORT, connection -> new ConnectionHandler() {
            @Override
            public void onRead(Connection reading, ByteBuffer input) {
                mostPendingAtARead.accumulateAndGet(reading.pendingOutputBytes(), Math::max);
                int bytes = input.remaining();
                input.position(input.limit());
                // four answer bytes per byte read, in pieces, as a server answers requests
                for (int i = 0; i < bytes / 1024 * 4 + 4; i++) {
                    reading.write(ByteBuffer.allocate(ANSWER_BYTES / 4));
                    answered.addAndGet(ANSWER_BYTES / 4);
                }
                if (reading.pendingOutputBytes() > HIGH) {
                    passedHighWater.countDown();
                }
                if (received.addAndGet(bytes) == SENT) {
                    allReceived.countDown();
                    reading.close(); // once the answers are written: the client reads to the end
                }
            }
        }, options);
        try (Socket client = new Socket(InetAddress.getLoopbackAddress(), listener.address().getPort())) {
            client.setSoTimeout(30_000);
            CompletableFuture<Void> writing = CompletableFuture.runAsync(() -> send(client));
            assertTrue(passedHighWater.await(30, TimeUnit.SECONDS), "the output never passed the high-water mark");
            CompletableFuture<Long> reading = CompletableFuture.supplyAsync(() -> drain(client));
            writing.get(60, TimeUnit.SECONDS);
            assertTrue(allReceived.await(60, TimeUnit.SECONDS), "received " + received.get() + " of " + SENT);
            assertEquals(answered.get(), reading.get(60, TimeUnit.SECONDS), "answer bytes lost");
        } finally {
            listener.close();
        }
        assertTrue(mostPendingAtARead.get() <= HIGH, "a read was handed over with " + mostPendingAtARead.get()
                + " bytes of output pending, above the high-water mark of " + HIGH);
    }

    private static void send(Socket client) {
        byte[] chunk = new byte[1024];
        try {
            OutputStream out = client.getOutputStream();
            for (int sent = 0; sent < SENT; sent += chunk.length) {
                out.write(chunk);
            }
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads to the end: the server closes once it has read everything and written its answers. */
    private static long drain(Socket client) {
        byte[] buffer = new byte[64 * 1024];
        long total = 0;
        try {
            InputStream in = client.getInputStream();
            for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
                total += read;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return total;
    }
}
