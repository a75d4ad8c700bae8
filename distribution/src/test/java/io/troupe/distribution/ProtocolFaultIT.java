package io.troupe.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.troupe.protocol.ErrorCode;
import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameDecoder;
import io.troupe.protocol.FrameEncoder;
import io.troupe.protocol.FrameType;

/**
 * A malformed frame after requests, in the built distribution over a real socket: the server answers
 * every request it accepted before the bad frame, then sends the fault's ERROR, then closes; nothing
 * sent after the bad frame runs. {@code burn} (a handler that answers after keeping its worker busy
 * for the microseconds asked) makes the reply come well after the bad frame has arrived.
 *
 * <p><b>Threading:</b> JUnit's thread; one Troupe process for the class, whose output
 * {@link TroupeProcess}'s threads read.
 */
class ProtocolFaultIT {

    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final Duration LOADED = Duration.ofSeconds(15);
    private static final Duration REPLY = Duration.ofSeconds(10);
    private static final Duration STOP = Duration.ofSeconds(10);
    private static final Path JAVA_HOME = Path.of(System.getProperty("java.home"));
    /** How long burn keeps its worker busy: the bad frame is read long before the reply exists. */
    private static final String BURN_MICROS = "400000";

    @TempDir
    static Path dir;

    private static TroupeProcess troupe;
    private static TestTenants tenants;

    @BeforeAll
    static void startTroupe() throws Exception {
        int port = TestInstallation.freePort();
        Path home = TestInstallation.copy(dir, port);
        Files.copy(Path.of(System.getProperty("troupe.burnPlugin")), home.resolve("deploy/burn.jar"));
        troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME);
        troupe.awaitLineStartingWith("Troupe ready", STARTUP);
        tenants = new TestTenants(home, port);
        tenants.write("faulty");
    }

    @AfterAll
    static void stopTroupe() throws Exception {
        if (troupe != null) {
            try {
                assertEquals(0, troupe.terminate(STOP), troupe::transcript);
            } finally {
                troupe.close();
            }
        }
    }

    @Test
    void aCorruptFrameAfterASlowRequestIsAnsweredAfterItsReplyThenTheConnectionCloses() throws Exception {
        try (RawClient client = RawClient.served(tenants.port(), "faulty")) {
            long start = System.nanoTime();
            ByteBuffer pipeline = ByteBuffer.allocate(4096);
            FrameEncoder.encode(WireClient.request(2, "burn", BURN_MICROS), pipeline);
            pipeline.put(corrupt(WireClient.request(3, "echo", "corrupt")));
            FrameEncoder.encode(WireClient.request(4, "echo", "after the bad frame"), pipeline);
            client.write(pipeline.flip());

            Frame reply = client.expect(REPLY);
            assertEquals(FrameType.REPLY, reply.type(), () -> reply + " " + reply.text());
            assertEquals(2, reply.corrId());
            assertEquals(BURN_MICROS, reply.text());
            assertTrue(System.nanoTime() - start >= Long.parseLong(BURN_MICROS) * 1000,
                    "the reply took the burn's time: the ERROR waited for it");
            Frame error = client.expect(REPLY);
            assertEquals(FrameType.ERROR, error.type(), () -> error + " " + error.text());
            assertEquals(ErrorCode.FRAME_CRC.code(), error.name(), error::text);
            assertEquals(Optional.empty(), client.next(REPLY), "closed after the ERROR; request 4 never ran");
        }
    }

    @Test
    void aCorruptFrameWithNothingInFlightIsAnsweredAtOnce() throws Exception {
        try (RawClient client = RawClient.served(tenants.port(), "faulty")) {
            client.write(ByteBuffer.wrap(corrupt(WireClient.request(2, "echo", "corrupt"))));
            Frame error = client.expect(REPLY);
            assertEquals(ErrorCode.FRAME_CRC.code(), error.name(), error::text);
            assertEquals(Optional.empty(), client.next(REPLY));
        }
    }

    /**
     * A loopback connection that writes raw bytes (frames {@link WireClient} would not send) and reads
     * frames, every read bounded by its timeout.
     */
    private static final class RawClient implements AutoCloseable {

        private final Socket socket;
        private final FrameDecoder decoder = new FrameDecoder(64 << 20);
        private ByteBuffer received = ByteBuffer.allocate(64 << 10);
        private boolean ended;

        private RawClient(Socket socket) {
            this.socket = socket;
        }

        /** A session of {@code tenant}: HELLO retried (every 100 ms) until WELCOME, at most {@link #LOADED}. */
        static RawClient served(int port, String tenant) throws IOException {
            long deadline = System.nanoTime() + LOADED.toNanos();
            while (true) {
                Socket socket = new Socket();
                socket.setTcpNoDelay(true);
                socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
                RawClient client = new RawClient(socket);
                client.write(FrameEncoder.encode(Frame.hello(1, tenant, TestTenants.TOKEN)));
                Frame answer = client.expect(REPLY);
                if (answer.type() == FrameType.WELCOME) {
                    return client;
                }
                client.close();
                if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError("tenant '" + tenant + "' not served: " + answer + " " + answer.text());
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
            }
        }

        void write(ByteBuffer bytes) throws IOException {
            byte[] array = new byte[bytes.remaining()];
            bytes.get(array);
            socket.getOutputStream().write(array);
            socket.getOutputStream().flush();
        }

        Frame expect(Duration timeout) throws IOException {
            return next(timeout).orElseThrow(() -> new AssertionError("the server closed the connection"));
        }

        /** The next frame; empty once the server has closed the connection. */
        Optional<Frame> next(Duration timeout) throws IOException {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                received.flip();
                Frame frame = decoder.decode(received);
                received.compact();
                if (frame != null) {
                    return Optional.of(frame);
                }
                if (ended) {
                    return Optional.empty();
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("no frame within " + timeout);
                }
                if (!received.hasRemaining()) {
                    received = ByteBuffer.allocate(received.capacity() * 2).put(received.flip());
                }
                socket.setSoTimeout((int) Math.max(1, left / 1_000_000));
                try {
                    int n = socket.getInputStream().read(received.array(), received.position(), received.remaining());
                    if (n < 0) {
                        ended = true;
                    } else {
                        received.position(received.position() + n);
                    }
                } catch (SocketTimeoutException e) {
                    // the deadline decides
                } catch (SocketException reset) {
                    ended = true;
                }
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    /** {@code frame} encoded, its last byte (part of its checksum) flipped. */
    private static byte[] corrupt(Frame frame) {
        byte[] bytes = FrameEncoder.encode(frame).array();
        bytes[bytes.length - 1] ^= 1;
        return bytes;
    }
}
