package io.troupe.distribution;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import io.troupe.client.TroupeClient;

/**
 * The built distribution when the process runs out of a resource while it serves, with real limits set
 * on the running server's JVM by {@code prlimit(1)} (util-linux; no mount, no root needed for one's own
 * processes) and real files:
 * <ul>
 * <li>file descriptors: the soft {@code RLIMIT_NOFILE} is lowered below the descriptors the JVM holds, so
 *     every open, accept and folder listing fails with EMFILE (the issue's fourth row: the deploy watcher failed
 *     with "Cannot list the deploy folder"). The open connection goes on being served; the deploy watcher
 *     and the acceptor each log the trouble once; once the limit is back, the jar dropped meanwhile is
 *     deployed and the connection that waited in the backlog is accepted, each end logged once;</li>
 * <li>disk: {@code RLIMIT_FSIZE} is lowered below the sizes of {@code log/troupe.log} and
 *     {@code data/state.mv.db}, so that every write past it fails with EFBIG, as on a full disk. Requests
 *     that need no durable write are still answered; durable adds fail with {@code state.unavailable} naming
 *     the disk error; stderr tells the log file's trouble once when it starts and once when it ends; once
 *     the limit is back the adds work, and after a restart the counter holds exactly the adds that were
 *     acknowledged;</li>
 * <li>the log folder replaced by a plain file while running (root ignores permission bits, so a chmod
 *     proves nothing in CI): told once on stderr, requests go on, and once the folder can be made again the
 *     new {@code log/troupe.log} starts with a WARN saying how long the file failed.</li>
 * </ul>
 *
 * <p><b>Threading:</b> JUnit's thread drives each test; the client's loop thread completes its requests.
 */
class ResourceExhaustionIT {

    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final Duration REPLY = Duration.ofSeconds(20);
    private static final Duration STOP = Duration.ofSeconds(20);
    /** Long enough for a deploy poll, a retried accept and a log flush after a change. */
    private static final Duration NOTICE = Duration.ofSeconds(30);
    /** How long each exhaustion lasts while requests keep coming: several deploy polls and accept retries. */
    private static final Duration EPISODE = Duration.ofSeconds(4);
    private static final Path JAVA_HOME = Path.of(System.getProperty("java.home"));
    /**
     * The soft RLIMIT_NOFILE set: the limit bounds the number a new descriptor gets, not the count held, and
     * 0, 1 and 2 are the pipes of the process, so with 3 every new descriptor fails, whatever gaps the
     * numbering has; those already open keep working.
     */
    private static final int NO_NEW_DESCRIPTOR = 3;
    /** The soft RLIMIT_FSIZE set, in bytes: every write of the process past it fails with EFBIG. */
    private static final long NO_WRITE_PAST = 1024;
    private static final String TENANT = "alpha";
    private static final String TOKEN = "alpha-secret-alpha-secret-alpha-secret";

    /** Kept when a test fails: the installation's log/troupe.log and data/ are the evidence. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    private Path home;
    private int port;
    private TroupeProcess troupe;

    @BeforeEach
    void install() throws IOException {
        assumeTrue(prlimitWorks(), "prlimit(1) (util-linux) is needed to set limits on the server's JVM");
        port = TestInstallation.freePort();
        home = TestInstallation.copy(dir, port);
        Files.writeString(home.resolve("etc/io.troupe.tenant-" + TENANT + ".cfg"), "token = " + TOKEN + "\n");
    }

    @AfterEach
    void printLogOnFailure() {
        if (troupe != null) {
            troupe.close();
        }
    }

    @Test
    void outOfFileDescriptorsTheOpenConnectionIsServedEachTroubleIsLoggedOnceAndAllRecoversWhenTheyAreBack()
            throws Exception {
        Path echo = Files.move(home.resolve("deploy/echo.jar"), dir.resolve("echo.jar"));
        troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME);
        troupe.awaitLineStartingWith("Troupe ready", STARTUP);
        ProcessHandle jvm = TestInstallation.jvm(home);
        try (TroupeClient client = connect()) {
            assertEquals("1", request(client, "counter.add", "1"));

            String before = softLimit(jvm, "Max open files");
            assertTrue(openDescriptors(jvm) > NO_NEW_DESCRIPTOR, "the JVM holds more descriptors than the limit");
            prlimit(jvm, "--nofile=" + NO_NEW_DESCRIPTOR + ":");
            try (Socket waiting = new Socket()) {
                Files.copy(echo, home.resolve("deploy/echo.jar"));
                waiting.connect(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5000);
                Await.until("the deploy watcher and the acceptor log EMFILE", NOTICE,
                        () -> count("ERROR .*Cannot list the deploy folder .*Too many open files") == 1
                                && count("WARN .*Accepting on .* fails: .*Too many open files") == 1,
                        this::logTail);
                long total = 1;
                long end = System.nanoTime() + EPISODE.toNanos();
                while (System.nanoTime() - end < 0) {
                    total++;
                    assertEquals(Long.toString(total), request(client, "counter.add", "1"),
                            "the open connection is served while no descriptor is left");
                }
                assertEquals(1, count("Cannot list the deploy folder"), this::logTail);
                assertEquals(1, count("Accepting on .* fails"), this::logTail);
                assertEquals(0, count("Deploy folder scan failed"), this::logTail);

                prlimit(jvm, "--nofile=" + before + ":");
                Await.until("the deploy folder listed, echo deployed and the waiting connection accepted", NOTICE,
                        () -> count("INFO .*The deploy folder .* is readable again after \\d+ ms") == 1
                                && count("Plugin deploy/echo.jar is io.troupe.sample.echo") == 1
                                && count("INFO .*Accepting on .* works again after failing for \\d+ ms") == 1,
                        this::logTail);
            }
            try (TroupeClient second = connect()) {
                assertEquals("after", request(second, "echo", "after"));
                assertEquals(request(client, "counter.get", ""), request(second, "counter.get", ""),
                        "the connection accepted after the exhaustion serves the same tenant");
            }
        }
        assertEquals(1, count("Cannot list the deploy folder"), this::logTail);
        assertEquals(1, count("Accepting on .* fails"), this::logTail);
        printWarningsAndErrors("descriptors");
        assertEquals(0, troupe.terminate(STOP), troupe::transcript);
    }

    @Test
    void aDiskThatRefusesWritesFailsDurableWritesPreciselyKeepsServingTheRestAndNothingIsCorruptAfter()
            throws Exception {
        troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME);
        troupe.awaitLineStartingWith("Troupe ready", STARTUP);
        ProcessHandle jvm = TestInstallation.jvm(home);
        Path log = home.resolve("log/troupe.log");
        Path store = home.resolve("data/state.mv.db");
        long acknowledged;
        try (TroupeClient client = connect()) {
            assertEquals("1", request(client, "counter.add", "1"));
            assertEquals("2", request(client, "counter.add", "1"));
            acknowledged = 2;

            assertTrue(Files.size(log) > NO_WRITE_PAST && Files.size(store) > NO_WRITE_PAST,
                    "troupe.log and state.mv.db are larger than the limit");
            long limit = NO_WRITE_PAST;
            String before = softLimit(jvm, "Max file size");
            prlimit(jvm, "--fsize=" + limit + ":"); // the soft limit only: it can be raised again
            String failure = failedRequest(client, "counter.add", "1");
            assertTrue(failure.contains("state.unavailable") && failure.contains("File too large"),
                    "a durable add names the disk's error: " + failure);
            Await.until("stderr says once that the log file fails", NOTICE,
                    () -> stderrCount("troupe-log: log file .*troupe.log fails \\(cannot write it: .*File too large")
                            == 1, troupe::transcript);
            long end = System.nanoTime() + EPISODE.toNanos();
            int refused = 1;
            while (System.nanoTime() - end < 0) {
                assertEquals("still here", request(client, "echo", "still here"),
                        "a request that writes nothing durable is answered while the disk refuses writes");
                failedRequest(client, "counter.add", "1");
                refused++;
            }
            assertEquals(1, stderrCount("troupe-log: log file .* fails"), troupe::transcript);
            assertEquals(1, stderrCount("ERROR .*State store writes fail: .*File too large"), troupe::transcript);
            assertEquals(1, stderrCount("ERROR .*(state not durable|its state could not be read from the store)"),
                    troupe::transcript);
            assertEquals(0, stderrCount("WARN .*Actor .* (failed|exceeded)"), troupe::transcript);

            prlimit(jvm, "--fsize=" + before + ":");
            AtomicReference<String> lastOutcome = new AtomicReference<>("none yet");
            List<String> firstOutcomes = new java.util.concurrent.CopyOnWriteArrayList<>();
            Await.until("a durable add is acknowledged again", NOTICE, () -> {
                try {
                    String reply = request(client, "counter.add", "1");
                    lastOutcome.set("answered " + reply);
                    if (firstOutcomes.size() < 5) {
                        firstOutcomes.add(lastOutcome.get());
                    }
                    return reply.equals(Long.toString(acknowledged + 1));
                } catch (ExecutionException e) {
                    lastOutcome.set("failed: " + e.getCause());
                    if (firstOutcomes.size() < 5) {
                        firstOutcomes.add(lastOutcome.get());
                    }
                    return false; // the actor restarts from its last durable state first
                }
            }, () -> "the first adds " + firstOutcomes + ", the last " + lastOutcome.get() + "\n"
                    + troupe.transcript());
            long total = acknowledged + 1;
            Await.until("the log file tells how long it failed, and the store that it writes again", NOTICE,
                    () -> count("WARN .*log file .*troupe.log works again after failing for \\d+ s") == 1
                            && count("INFO .*State store .* writes again after failing for \\d+ ms") == 1
                            && count("INFO .*The state store takes actors' states again after failing them") == 1,
                    this::logTail);
            assertEquals(1, stderrCount("troupe-log: log file .* works again after failing"), troupe::transcript);
            System.out.println("[disk] " + refused + " durable adds refused while writes failed; total " + total);
            printWarningsAndErrors("disk");
            assertEquals(0, troupe.terminate(STOP), troupe::transcript);

            troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME);
            troupe.awaitLineStartingWith("Troupe ready", STARTUP);
            try (TroupeClient after = connect()) {
                assertEquals(Long.toString(total), request(after, "counter.get", ""),
                        "after a restart, exactly the acknowledged adds");
            }
            assertEquals(0, troupe.terminate(STOP), troupe::transcript);
        }
    }

    @Test
    void aLogFolderReplacedByAFileIsToldOnceRequestsGoOnAndTheFileComesBackWhenTheFolderCanBeMade()
            throws Exception {
        troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME);
        troupe.awaitLineStartingWith("Troupe ready", STARTUP);
        Path folder = home.resolve("log");
        Path logFile = folder.resolve("troupe.log");
        try (TroupeClient client = connect()) {
            assertEquals("1", request(client, "counter.add", "1"));

            Files.move(folder, home.resolve("log.moved"));
            Files.writeString(folder, "a file where the log folder was\n");
            touchLogConfiguration(); // the logger writes a record of its own once it applied it
            Await.until("stderr says once that the log file cannot be opened", NOTICE,
                    () -> stderrCount("troupe-log: log file .*troupe.log fails \\(cannot open it: .*not a folder")
                            == 1, troupe::transcript);
            touchLogConfiguration();
            Await.until("a record logged meanwhile goes to stderr", NOTICE,
                    () -> stderrCount("INFO .*Applied .*io.troupe.log.cfg") >= 1, troupe::transcript);
            for (int i = 2; i <= 20; i++) {
                assertEquals(Long.toString(i), request(client, "counter.add", "1"));
            }

            Files.delete(folder);
            touchLogConfiguration();
            Await.until("the log file is back with a WARN saying how long it failed", NOTICE,
                    () -> Files.isRegularFile(logFile) && count("WARN .*log file .*troupe.log works again after"
                            + " failing for \\d+ s \\(cannot open it: .*\\); [1-9]\\d* records") == 1, this::logTail);
            assertEquals(1, stderrCount("troupe-log: log file .* fails"), troupe::transcript);
            assertEquals(1, stderrCount("troupe-log: log file .* works again after failing"), troupe::transcript);
            assertEquals("21", request(client, "counter.add", "1"));
        }
        assertEquals(0, troupe.terminate(STOP), troupe::transcript);
        assertTrue(Files.readString(logFile).contains("Troupe logger stopped"), "the new file is the log to the end");
    }

    /** Prints the WARN and ERROR lines of the log and stderr's lines, so that a run shows what else complained. */
    private void printWarningsAndErrors(String test) throws IOException {
        try (Stream<String> lines = Files.lines(home.resolve("log/troupe.log"), UTF_8)) {
            lines.filter(line -> line.contains(" WARN ") || line.contains(" ERROR "))
                    .forEach(line -> System.out.println("[" + test + "] log: " + line));
        }
        troupe.stderr().forEach(line -> System.out.println("[" + test + "] stderr: " + line));
    }

    /** Appends a comment to {@code etc/io.troupe.log.cfg}: the logger applies it and logs "Applied ...". */
    private void touchLogConfiguration() throws IOException {
        Path config = home.resolve("etc/io.troupe.log.cfg");
        Files.writeString(config, Files.readString(config) + "# touched at " + System.nanoTime() + "\n");
    }

    /** Lines of {@code log/troupe.log} matching {@code regex} (found anywhere in the line). */
    private long count(String regex) throws IOException {
        Path log = home.resolve("log/troupe.log");
        if (!Files.isRegularFile(log)) {
            return 0;
        }
        Pattern pattern = Pattern.compile(regex);
        try (Stream<String> lines = Files.lines(log, UTF_8)) {
            return lines.filter(line -> pattern.matcher(line).find()).count();
        }
    }

    private long stderrCount(String regex) {
        Pattern pattern = Pattern.compile(regex);
        return troupe.stderr().stream().filter(line -> pattern.matcher(line).find()).count();
    }

    /** The last lines of {@code log/troupe.log} and the process's output, for failure messages. */
    private String logTail() {
        Path log = home.resolve("log/troupe.log");
        try {
            if (!Files.isRegularFile(log)) {
                return "(no " + log + ")" + troupe.transcript();
            }
            List<String> lines = Files.readAllLines(log, UTF_8);
            return "\n--- log/troupe.log, last 60 lines ---\n"
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()))
                    + troupe.transcript();
        } catch (IOException e) {
            return "(" + log + " unreadable: " + e + ")" + troupe.transcript();
        }
    }

    private static long openDescriptors(ProcessHandle jvm) throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/" + jvm.pid() + "/fd"))) {
            return fds.count();
        }
    }

    /** The soft limit {@code name} of {@code jvm} as {@code /proc/PID/limits} shows it, as prlimit takes it back. */
    private static String softLimit(ProcessHandle jvm, String name) throws IOException {
        Matcher matcher = Pattern.compile("(?m)^" + name + "\\s+(\\d+|unlimited)\\s+")
                .matcher(Files.readString(Path.of("/proc/" + jvm.pid() + "/limits")));
        assertTrue(matcher.find(), "no '" + name + "' in /proc/" + jvm.pid() + "/limits");
        return matcher.group(1);
    }

    private static void prlimit(ProcessHandle jvm, String limit) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("prlimit", "--pid", Long.toString(jvm.pid()), limit)
                .redirectErrorStream(true).start();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail("prlimit " + limit + " did not finish");
        }
        String output = new String(process.getInputStream().readAllBytes(), UTF_8);
        assertEquals(0, process.exitValue(), () -> "prlimit --pid " + jvm.pid() + " " + limit + ": " + output);
    }

    private static boolean prlimitWorks() {
        try {
            Process process = new ProcessBuilder("prlimit", "--pid", Long.toString(ProcessHandle.current().pid()),
                    "--nofile").redirectErrorStream(true).start();
            process.getInputStream().readAllBytes();
            return process.waitFor(10, TimeUnit.SECONDS) && process.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** A connected client; HELLO is retried every 100 ms until the server loaded the tenant's file. */
    private TroupeClient connect() throws Exception {
        return TestTenants.connectedClient(port, TENANT, TOKEN, REPLY, STARTUP);
    }

    private static String request(TroupeClient client, String name, String text) throws Exception {
        byte[] reply = client.request(name, text.getBytes(UTF_8)).get(REPLY.toSeconds(), TimeUnit.SECONDS);
        return new String(reply, UTF_8);
    }

    /** The failure of a request that must fail: its exception's description, causes included. */
    private static String failedRequest(TroupeClient client, String name, String text) throws Exception {
        try {
            String reply = request(client, name, text);
            throw new AssertionError(name + " " + text + " was answered '" + reply + "' while it had to fail");
        } catch (ExecutionException e) {
            StringBuilder described = new StringBuilder();
            for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
                described.append(t).append("; ");
            }
            return described.toString();
        }
    }
}
