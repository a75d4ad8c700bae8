package io.troupe.distribution;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.troupe.protocol.ErrorCode;
import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameDecoder;
import io.troupe.protocol.FrameEncoder;
import io.troupe.protocol.FrameType;

/**
 * Credentials at rest and failed HELLOs, against the real distribution over real sockets, the failed-HELLO
 * throttle on (as shipped):
 * <ul>
 * <li>a tenant file with a plaintext token is rewritten with its hash, owner-only, and the token still works;</li>
 * <li>a token shorter than 32 characters is refused at load, with the file and the key in the log;</li>
 * <li>10,000 wrong-token HELLOs from 127.0.0.2 (Linux routes all of 127/8 to loopback): only a few are
 *     verified before the address is blocked, the rest are refused unchecked, the log gets a bounded number
 *     of lines about them; meanwhile the tenant still logs in from 127.0.0.1.</li>
 * </ul>
 *
 * <p><b>Threading:</b> the test thread, and a pool of attacker threads each with its own sockets.
 */
class FailedHelloIT {

    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final Duration LOADED = Duration.ofSeconds(15);
    private static final Duration REPLY = Duration.ofSeconds(10);
    private static final Duration STOP = Duration.ofSeconds(15);
    private static final Path JAVA_HOME = Path.of(System.getProperty("java.home"));
    private static final String TOKEN = "legit-token-0123456789-abcdefghijklmnop";
    private static final int ATTACK_HELLOS = 10_000;
    private static final int ATTACKERS = 16;
    /** The guard's BLOCK_AFTER (20), plus the HELLOs already queued for verification when it blocks. */
    private static final int MOST_VERIFIED = 20 + ATTACKERS;
    /** Log lines that may name the attacker: the periodic summaries of a minute or two, and the last one. */
    private static final int MOST_LOG_LINES = 4;

    @TempDir
    Path dir;

    @Test
    void tokensAreMigratedShortOnesRefusedAndTenThousandWrongHellosAreBlockedAndLoggedInAFewLines()
            throws Exception {
        int port = TestInstallation.freePort();
        Path home = TestInstallation.copy(dir, port);
        Files.writeString(home.resolve("etc/config.properties"), "\ntroupe.auth.throttle=true\n",
                StandardOpenOption.APPEND);
        Path legitFile = home.resolve("etc/io.troupe.tenant-legit.cfg");
        Files.writeString(legitFile, "# a tenant written by hand\ntoken = " + TOKEN + "\nmaxConnections = 50\n");
        Files.writeString(home.resolve("etc/io.troupe.tenant-short.cfg"), "token = short\n");

        try (TroupeProcess troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME)) {
            troupe.awaitLineStartingWith("Troupe ready", STARTUP);
            InetAddress loopback = InetAddress.getByName("127.0.0.1");

            // migration: the file holds the hash, owner-only; the token works
            Frame first = hello(loopback, port, "legit", TOKEN).orElseThrow();
            assertEquals(FrameType.WELCOME, first.type(), () -> first.text() + troupe.transcript());
            String migrated = awaitFileContaining(legitFile, "tokenHash = pbkdf2-sha256$600000$");
            assertFalse(migrated.contains(TOKEN), migrated);
            assertTrue(migrated.startsWith("# a tenant written by hand\ntokenHash = "), migrated);
            assertTrue(migrated.contains("maxConnections = 50\n"), migrated);
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(legitFile)));
            assertEquals(FrameType.WELCOME, hello(loopback, port, "legit", TOKEN).orElseThrow().type());
            assertFalse(hello(loopback, port, "short", "short").orElseThrow().type() == FrameType.WELCOME);

            // the attack, from another address, while the tenant logs in from its own
            InetAddress attacker = InetAddress.getByName("127.0.0.2");
            Attack attack = new Attack(attacker, port);
            long start = System.nanoTime();
            ExecutorService pool = Executors.newFixedThreadPool(ATTACKERS);
            List<Future<?>> running = new ArrayList<>();
            for (int i = 0; i < ATTACKERS; i++) {
                running.add(pool.submit(attack::run));
            }
            try {
                awaitAttempts(attack, ATTACK_HELLOS / 10);
                Optional<Frame> meanwhile = hello(loopback, port, "legit", TOKEN);
                assertEquals(FrameType.WELCOME, meanwhile.orElseThrow().type(),
                        () -> "the tenant during the attack: " + meanwhile + " " + meanwhile.get().text());
                for (Future<?> each : running) {
                    each.get(5, TimeUnit.MINUTES);
                }
            } finally {
                pool.shutdownNow();
            }
            long millis = (System.nanoTime() - start) / 1_000_000;
            String figures = attack + " in " + millis + " ms";
            System.out.println("FailedHelloIT: " + figures);
            assertEquals(ATTACK_HELLOS, attack.sent.get(), figures);
            assertEquals(0, attack.welcomed.sum(), figures);
            assertTrue(attack.verified.sum() <= MOST_VERIFIED, "only a few are verified: " + figures);
            assertTrue(attack.blocked.sum() >= ATTACK_HELLOS - MOST_VERIFIED - attack.busy.sum()
                    - attack.closed.sum(), "the rest are refused unchecked: " + figures);
            assertTrue(attack.blocked.sum() >= ATTACK_HELLOS / 2, figures);

            assertEquals(0, troupe.terminate(STOP), troupe::transcript);
        }
        List<String> log = Files.readAllLines(home.resolve("log/troupe.log"), UTF_8);
        assertTrue(log.stream().anyMatch(line -> line.contains("Tenant 'legit': the plaintext token in")
                && line.contains("was migrated")), "the migration is logged");
        assertTrue(log.stream().anyMatch(line -> line.contains("io.troupe.tenant-short.cfg: token: the token has 5 "
                + "characters; at least 32 are required")), "the short token is refused with file and key");
        List<String> aboutAttacker = log.stream().filter(line -> line.contains("127.0.0.2")).toList();
        assertTrue(!aboutAttacker.isEmpty() && aboutAttacker.size() <= MOST_LOG_LINES,
                () -> aboutAttacker.size() + " lines:\n" + String.join("\n", aboutAttacker));
        assertTrue(aboutAttacker.stream().anyMatch(line -> line.contains("Failed HELLOs")), aboutAttacker::toString);
        assertTrue(log.stream().noneMatch(line -> line.contains("authentication as tenant")), "no line per failure");
    }

    /** HELLOs as tenant legit with a wrong token from one address, until {@link #ATTACK_HELLOS} are sent. */
    private static final class Attack {
        final InetAddress from;
        final int port;
        final AtomicInteger sent = new AtomicInteger();
        final LongAdder welcomed = new LongAdder();
        final LongAdder verified = new LongAdder();
        final LongAdder blocked = new LongAdder();
        final LongAdder busy = new LongAdder();
        final LongAdder closed = new LongAdder();

        Attack(InetAddress from, int port) {
            this.from = from;
            this.port = port;
        }

        void run() {
            while (sent.getAndIncrement() < ATTACK_HELLOS) {
                Optional<Frame> answer;
                try {
                    answer = hello(from, port, "legit", "wrong-token-wrong-token-wrong-token-x");
                } catch (IOException e) {
                    closed.increment(); // refused by the acceptor's limits: not verified either
                    continue;
                }
                if (answer.isEmpty()) {
                    closed.increment();
                } else if (answer.get().type() == FrameType.WELCOME) {
                    welcomed.increment();
                } else if (ErrorCode.SERVER_BUSY.code().equals(answer.get().name())) {
                    busy.increment();
                } else if (answer.get().text().startsWith("too many failed HELLOs")) {
                    blocked.increment();
                } else {
                    verified.increment();
                }
            }
            sent.decrementAndGet();
        }

        @Override
        public String toString() {
            return sent + " wrong HELLOs: " + verified + " verified and refused, " + blocked + " refused unchecked "
                    + "(address blocked), " + busy + " server.busy, " + closed + " closed without answer, " + welcomed
                    + " welcomed";
        }
    }

    private static void awaitAttempts(Attack attack, int attempts) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (attack.sent.get() < attempts) {
            assertTrue(System.nanoTime() - deadline < 0, "the attack is stuck: " + attack);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
    }

    private static String awaitFileContaining(Path file, String text) throws IOException {
        long deadline = System.nanoTime() + LOADED.toNanos();
        while (true) {
            String content = Files.readString(file, UTF_8);
            if (content.contains(text)) {
                return content;
            }
            assertTrue(System.nanoTime() - deadline < 0, file + " still reads:\n" + content);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        }
    }

    /** One connection from {@code from}: HELLO, and the answer (empty when the server closed without one). */
    private static Optional<Frame> hello(InetAddress from, int port, String tenant, String token) throws IOException {
        try (Socket socket = new Socket()) {
            socket.bind(new InetSocketAddress(from, 0));
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), port), (int) REPLY.toMillis());
            socket.getOutputStream().write(FrameEncoder.encode(Frame.hello(1, tenant, token)).array());
            socket.setSoTimeout((int) REPLY.toMillis());
            return read(socket.getInputStream());
        }
    }

    private static Optional<Frame> read(InputStream in) throws IOException {
        FrameDecoder decoder = new FrameDecoder(1 << 16);
        ByteBuffer buffer = ByteBuffer.allocate(1 << 16);
        while (true) {
            int n;
            try {
                n = in.read(buffer.array(), buffer.position(), buffer.remaining());
            } catch (SocketTimeoutException e) {
                throw new AssertionError("no answer to HELLO within " + REPLY);
            } catch (SocketException reset) {
                return Optional.empty();
            }
            if (n < 0) {
                return Optional.empty();
            }
            buffer.position(buffer.position() + n);
            buffer.flip();
            Frame frame = decoder.decode(buffer);
            buffer.compact();
            if (frame != null) {
                return Optional.of(frame);
            }
        }
    }
}
