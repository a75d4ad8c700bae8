package io.troupe.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameType;

/**
 * The denial of service of issue 14, run against the built distribution at a low file limit
 * ({@code ulimit -n 512}): an attacker without a token, from one address, keeps about 1,100 silent
 * connections open (more than the server has file descriptors), re-opening them as the server drops
 * them. Before the admission limits, a legitimate tenant's new sessions failed 8 times in 9 and the
 * deploy watcher failed with EMFILE. Now each of the tenant's new sessions during the attack must
 * succeed, the server must never run out of file descriptors, and the refusals must be logged as
 * counts, not one line each.
 *
 * <p><b>Threading:</b> JUnit's thread runs the tenant's sessions; one attacker thread.
 */
@Timeout(300)
class UnauthenticatedFloodIT {

    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final Duration REPLY = Duration.ofSeconds(10);
    private static final Duration STOP = Duration.ofSeconds(15);
    private static final Path JAVA_HOME = Path.of(System.getProperty("java.home"));
    private static final int OPEN_FILES = 512;
    private static final int ATTACK_CONNECTIONS = 1_100;
    private static final int SESSIONS = 30;
    private static final String ATTACKER = "127.0.0.2";

    @TempDir
    Path dir;

    @Test
    void silentConnectionsFromOneAddressLeaveATenantsNewSessionsServed() throws Exception {
        int port = TestInstallation.freePort();
        Path home = TestInstallation.copy(dir, port);
        TestTenants tenants = new TestTenants(home, port);
        tenants.write("acme");
        Path launcher = dir.resolve("troupe-at-" + OPEN_FILES + "-files");
        Files.writeString(launcher, "#!/bin/sh\nulimit -n " + OPEN_FILES + " || exit 97\nexec '" + home.resolve("bin/troupe")
                + "'\n", StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwx------"));
        try (TroupeProcess troupe = TroupeProcess.start(launcher, dir, JAVA_HOME)) {
            troupe.awaitLineStartingWith("Troupe ready", STARTUP);
            tenants.served("acme", REPLY).close();

            Attacker attacker = new Attacker(port);
            Thread attack = new Thread(attacker, "attacker");
            attack.start();
            try {
                assertTrue(attacker.awaitOpened(ATTACK_CONNECTIONS, Duration.ofSeconds(60)),
                        "the attacker opened only " + attacker.opened.get() + " connections");
                for (int i = 1; i <= SESSIONS; i++) {
                    try (WireClient client = WireClient.connect(port)) {
                        Frame welcome = client.hello("acme", TestTenants.TOKEN, REPLY);
                        assertEquals(FrameType.WELCOME, welcome.type(), "session " + i + " during the attack: "
                                + welcome + " " + welcome.text());
                        client.send(WireClient.request(2, "echo", "session " + i));
                        assertEquals("session " + i, client.expect(REPLY).text());
                    }
                }
            } finally {
                attacker.stop.set(true);
                attack.join(30_000);
            }
            assertTrue(attacker.opened.get() >= ATTACK_CONNECTIONS, "the attack never got going");
            assertEquals(0, troupe.terminate(STOP), troupe::transcript); // the logger flushes on the way out

            Path log = home.resolve("log/troupe.log");
            List<String> lines;
            try (Stream<String> all = Files.lines(log)) {
                lines = all.collect(Collectors.toList());
            }
            List<String> exhausted = lines.stream().filter(line -> line.contains("Too many open files")
                    || line.contains("EMFILE")).collect(Collectors.toList());
            assertTrue(exhausted.isEmpty(), "the server ran out of file descriptors, " + exhausted.size()
                    + " lines; the first: " + (exhausted.isEmpty() ? "" : exhausted.get(0)));
            long refusalLines = lines.stream().filter(line -> line.contains("Refused ")
                    && line.contains("connections on")).count();
            assertTrue(refusalLines >= 1, "no refusal was logged");
            assertTrue(refusalLines <= 20, refusalLines + " refusal lines for one attack: not aggregated");
            assertTrue(lines.stream().anyMatch(line -> line.contains("Listening on") && line.contains("at most")),
                    "the listener did not log its admission limits");
        }
    }

    /**
     * Keeps {@value #ATTACK_CONNECTIONS} connections from {@value #ATTACKER} open, never sending a byte:
     * when it holds that many it closes the oldest and opens another, so that the server sees a steady
     * stream of new silent connections, as one attacker re-opening them would make.
     */
    private static final class Attacker implements Runnable {

        private final int port;
        private final AtomicBoolean stop = new AtomicBoolean();
        private final AtomicLong opened = new AtomicLong();
        private final ArrayDeque<Socket> held = new ArrayDeque<>();

        Attacker(int port) {
            this.port = port;
        }

        boolean awaitOpened(int count, Duration timeout) throws InterruptedException {
            long deadline = System.nanoTime() + timeout.toNanos();
            synchronized (this) {
                while (opened.get() < count) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        return false;
                    }
                    wait(Math.max(1, left / 1_000_000));
                }
            }
            return true;
        }

        @Override
        public void run() {
            try {
                while (!stop.get()) {
                    if (held.size() >= ATTACK_CONNECTIONS) {
                        close(held.poll());
                    }
                    Socket socket = new Socket();
                    try {
                        socket.bind(new InetSocketAddress(InetAddress.getByName(ATTACKER), 0));
                        socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1_000);
                        held.add(socket);
                    } catch (IOException refused) {
                        close(socket);
                    }
                    synchronized (this) {
                        opened.incrementAndGet();
                        notifyAll();
                    }
                }
            } finally {
                held.forEach(Attacker::close);
            }
        }

        private static void close(Socket socket) {
            try {
                socket.close();
            } catch (IOException e) {
                // already reset by the server
            }
        }
    }
}
