package io.troupe.host.reactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.troupe.api.net.Connection;
import io.troupe.api.net.ConnectionHandler;
import io.troupe.api.net.ConnectionOptions;
import io.troupe.api.net.Listener;

/**
 * The reactor's heap budget for pending output, over real sockets: four peers send and never read, each
 * read of theirs answered with four times as many bytes, under a per-connection high-water mark so high that
 * it alone would let them hold 16 MiB; the budget (512 KiB) holds them near it, while a fifth peer that
 * reads its answers is served throughout; once the four read, every answer arrives.
 */
@Timeout(120)
class OutputBudgetTest {

    private static final InetSocketAddress ANY_PORT = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    private static final long BUDGET = 512 << 10;
    private static final int HIGH = 4 << 20;
    private static final int FLOODERS = 4;
    private static final int SENT = 4 << 20;
    /** The budget, plus for each flooder its held mark and the answers to one read slice (64 KiB, four times). */
    private static final long BOUND = BUDGET + FLOODERS * (OutputBudget.HELD_ABOVE_BYTES + 4 * 64 * 1024 + 4096);

    private NioReactor reactor;

    @AfterEach
    void stop() throws InterruptedException {
        if (reactor != null) {
            assertTrue(reactor.shutdown(Duration.ofSeconds(5)), "reactor threads did not end");
        }
    }

    @Test
    void theBudgetIsAShareOfTheHeap() {
        assertEquals(64L << 20, OutputBudget.ofHeap(256L << 20).limitBytes());
        assertEquals(Long.MAX_VALUE, OutputBudget.ofHeap(Long.MAX_VALUE).limitBytes());
        assertThrows(IllegalArgumentException.class, () -> new OutputBudget(0));
    }

    @Test
    void countsAddsWritesAndClears() {
        OutputBudget budget = new OutputBudget(100);
        budget.add(60);
        budget.add(60);
        assertTrue(budget.exceeded());
        budget.add(-70);
        assertFalse(budget.exceeded());
        assertEquals(50, budget.pendingBytes());
    }

    @Test
    void peersThatNeverReadAreHeldToTheBudgetAndAPeerThatReadsIsServed() throws Exception {
        reactor = new NioReactor(2, EventLoop.DEFAULT_SPIN, new OutputBudget(BUDGET));
        ConnectionOptions options = new ConnectionOptions(HIGH, HIGH / 4, 1L << 30, 2 << 20);
        Listener listener = reactor.listen(ANY_PORT, connection -> new ConnectionHandler() {
            @Override
            public void onRead(Connection reading, ByteBuffer input) {
                int bytes = input.remaining();
                input.position(input.limit());
                // four answer bytes per byte read, in pieces of at most 4 KiB, as a server answers requests
                for (int left = 4 * bytes; left > 0; left -= 4096) {
                    reading.write(ByteBuffer.allocate(Math.min(left, 4096)));
                }
            }
        }, options);
        List<Socket> flooders = new ArrayList<>();
        List<CompletableFuture<Void>> sending = new ArrayList<>();
        try (Socket calm = connect(listener)) {
            for (int i = 0; i < FLOODERS; i++) {
                Socket flooder = connect(listener);
                flooders.add(flooder);
                sending.add(CompletableFuture.runAsync(() -> send(flooder, SENT)));
            }
            awaitPendingAbove(BUDGET, Duration.ofSeconds(30));
            long peak = 0;
            DataInputStream calmIn = new DataInputStream(calm.getInputStream());
            OutputStream calmOut = calm.getOutputStream();
            byte[] request = new byte[1024];
            byte[] answer = new byte[4096];
            for (int round = 0; round < 50; round++) {
                calmOut.write(request);
                calmOut.flush();
                calmIn.readFully(answer); // served while the flooders are held
                peak = Math.max(peak, reactor.pendingOutputBytes());
            }
            assertTrue(peak <= BOUND, "pending output reached " + peak + " bytes, above " + BOUND
                    + " (each flooder alone may hold " + HIGH + ")");
            List<CompletableFuture<Long>> reading = new ArrayList<>();
            for (Socket flooder : flooders) {
                reading.add(CompletableFuture.supplyAsync(() -> drain(flooder, 4L * SENT)));
            }
            for (int i = 0; i < FLOODERS; i++) {
                sending.get(i).get(60, TimeUnit.SECONDS);
                assertEquals(4L * SENT, reading.get(i).get(60, TimeUnit.SECONDS), "answer bytes lost");
            }
        } finally {
            for (Socket flooder : flooders) {
                flooder.close();
            }
            listener.close();
        }
    }

    private void awaitPendingAbove(long bytes, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (reactor.pendingOutputBytes() <= bytes) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("pending output never passed " + bytes + ": " + reactor.pendingOutputBytes());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }

    private static Socket connect(Listener listener) throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), listener.address().getPort());
        socket.setSoTimeout(60_000);
        return socket;
    }

    private static void send(Socket client, int total) {
        byte[] chunk = new byte[1024];
        try {
            OutputStream out = client.getOutputStream();
            for (int sent = 0; sent < total; sent += chunk.length) {
                out.write(chunk);
            }
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long drain(Socket client, long expected) {
        byte[] buffer = new byte[64 * 1024];
        long total = 0;
        try {
            InputStream in = client.getInputStream();
            while (total < expected) {
                int read = in.read(buffer);
                if (read < 0) {
                    break;
                }
                total += read;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return total;
    }
}
