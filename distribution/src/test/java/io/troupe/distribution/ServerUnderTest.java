package io.troupe.distribution;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.troupe.distribution.history.Faults;
import io.troupe.distribution.history.History;

/**
 * One private installation of the built distribution ({@link TestInstallation}) that a history test runs,
 * kills with SIGKILL, starts again and hot-swaps, recording each of these faults in the {@link History} as it
 * happens: the kill just before the signal, the restart once the server says it is ready, the swap before
 * {@code bin/troupe-client deploy} and its end once the command reports the new version running.
 *
 * <p><b>Threading:</b> the test thread.
 */
final class ServerUnderTest implements AutoCloseable {

    /** A token of 32 characters at least, the same for every tenant of the test. */
    static final String TOKEN = "history-token-0123456789abcdefghijklmnop";
    /** What {@code Process.exitValue()} reports for a process ended by SIGKILL: 128 + 9. */
    static final int KILLED = 137;

    private static final Duration STARTUP = Duration.ofSeconds(90);
    private static final Duration STOP = Duration.ofSeconds(30);
    private static final Duration DEPLOY = Duration.ofSeconds(90);
    private static final Path JAVA_HOME = Path.of(System.getProperty("java.home"));

    private final Path dir;
    private final Path home;
    private final int port;
    private final Map<String, String> tenants = new LinkedHashMap<>();
    private TroupeProcess process;
    private int deploys;

    private ServerUnderTest(Path dir, Path home, int port) {
        this.dir = dir;
        this.home = home;
        this.port = port;
    }

    /** Copies the distribution to {@code dir} on a free port, with a tenant file for each of {@code tenants}. */
    static ServerUnderTest install(Path dir, List<String> tenants) throws IOException {
        int port = TestInstallation.freePort();
        ServerUnderTest server = new ServerUnderTest(dir, TestInstallation.copy(dir, port), port);
        for (String tenant : tenants) {
            Files.writeString(server.home.resolve("etc/io.troupe.tenant-" + tenant + ".cfg"), "token = " + TOKEN
                    + "\n", UTF_8);
            server.tenants.put(tenant, TOKEN);
        }
        return server;
    }

    /** Tenant to token. */
    Map<String, String> tenants() {
        return Map.copyOf(tenants);
    }

    /** {@code 127.0.0.1:port}. */
    String address() {
        return "127.0.0.1:" + port;
    }

    Path home() {
        return home;
    }

    /** Starts {@code bin/troupe} and waits until it is ready. */
    void start() throws IOException, InterruptedException {
        if (process != null) {
            process.close();
        }
        process = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME);
        process.awaitLineStartingWith("Troupe ready", STARTUP);
    }

    /** SIGKILLs the server's JVM (recorded first as {@link Faults#KILL}), waits until it is gone. */
    void kill(History history) throws InterruptedException {
        ProcessHandle jvm = jvm();
        history.fault(Faults.KILL, home.getFileName().toString(), "SIGKILL to " + jvm.pid());
        TestInstallation.kill(jvm, STOP);
        assertEquals(KILLED, process.awaitExit(STOP), process::transcript);
    }

    /** Starts the server again after a kill and records {@link Faults#RESTART} once it is ready. */
    void restart(History history) throws IOException, InterruptedException {
        start();
        history.fault(Faults.RESTART, home.getFileName().toString(), "ready again");
    }

    /** Stops the server with SIGTERM; it must exit 0. */
    void stop() throws InterruptedException {
        assertEquals(0, process.terminate(STOP), process::transcript);
    }

    /**
     * Hot-swaps the counter to {@code samples/counter-VERSION.jar} with {@code bin/troupe-client deploy}, which
     * returns once the host runs it; records {@link Faults#SWAP} before and {@link Faults#SWAPPED} after.
     */
    void swapCounter(History history, String version) throws IOException, InterruptedException {
        Path jar = Files.createDirectories(dir.resolve("deploy-" + (++deploys))).resolve("counter.jar");
        Files.copy(home.resolve("samples/counter-" + version + ".jar"), jar);
        history.fault(Faults.SWAP, "counter", "to " + version);
        String said = TestInstallation.clientDeploy(home, dir, JAVA_HOME, jar, DEPLOY);
        assertTrue(said.contains("io.troupe.sample.counter " + version) && said.contains("running"), said);
        history.fault(Faults.SWAPPED, "counter", version + " running");
    }

    /**
     * Hot-swaps the counter to {@code samples/counter-VERSION.jar} as an operator's script would, cheaply
     * enough to do a hundred times under load: renames a copy into {@code deploy/counter.jar} at once, then
     * waits until {@code deploy/.status/counter.jar} judges those bytes ({@code sha256}) {@code running}.
     * Records {@link Faults#SWAP} before and {@link Faults#SWAPPED} after.
     *
     * @return how long the swap took, from the rename to the status
     * @throws AssertionError when the host refuses it or does not judge it within 90 s
     */
    Duration swapCounterInPlace(History history, String version) throws IOException {
        Path source = home.resolve("samples/counter-" + version + ".jar");
        String sha256 = sha256(Files.readAllBytes(source));
        Path deployed = home.resolve("deploy/counter.jar");
        Path part = home.resolve("deploy/.counter.jar.part");
        Files.copy(source, part, StandardCopyOption.REPLACE_EXISTING);
        history.fault(Faults.SWAP, "counter", "to " + version);
        long started = System.nanoTime();
        Files.move(part, deployed, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        Path status = home.resolve("deploy/.status/counter.jar");
        long deadline = started + DEPLOY.toNanos();
        while (true) {
            Properties judged = new Properties();
            if (Files.exists(status)) {
                try (Reader in = Files.newBufferedReader(status, UTF_8)) {
                    judged.load(in);
                } catch (IOException e) {
                    judged.clear(); // being replaced: read it again
                }
            }
            if (sha256.equals(judged.getProperty("sha256"))) {
                assertEquals("running", judged.getProperty("outcome"), () -> "the swap to " + version + ": " + judged
                        + "\n" + logTail(30));
                Duration took = Duration.ofNanos(System.nanoTime() - started);
                history.fault(Faults.SWAPPED, "counter", version + " running");
                return took;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("deploy/.status/counter.jar did not judge counter " + version + " within "
                        + DEPLOY + ": " + judged + "\n" + logTail(30));
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    /** The server's JVM: the one process whose command line carries {@code -Dtroupe.home=<home>}. */
    ProcessHandle jvm() {
        return TestInstallation.jvm(home);
    }

    /** The last {@code count} lines of {@code log/troupe.log}, for failure messages. */
    String logTail(int count) {
        Path log = home.resolve("log/troupe.log");
        try {
            List<String> lines = Files.exists(log) ? Files.readAllLines(log, UTF_8) : List.of("(no " + log + ")");
            return "--- the last " + count + " lines of " + log + " ---\n"
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - count), lines.size()));
        } catch (IOException | RuntimeException e) {
            return "--- " + log + " unreadable: " + e;
        }
    }

    @Override
    public void close() {
        if (process != null) {
            process.close();
        }
    }
}
