package io.troupe.distribution;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

/**
 * One node of a test cluster: a private copy of the built distribution ({@link TestInstallation}) with
 * its own client port and cluster port on loopback and an {@code etc/io.troupe.cluster.cfg} naming the
 * members to join, run with {@code bin/troupe} in script mode (so that the test types shell commands,
 * {@code troupe:cluster} among them, on its standard input), stopped with {@code bin/troupe stop} or
 * killed with SIGKILL.
 *
 * <p><b>Threading:</b> one test thread drives a node; {@link #close()} from any thread.
 */
final class ClusterNode implements AutoCloseable {

    /** The shared secret of every test cluster: at least 16 characters. */
    static final String SECRET = "a-long-shared-secret-for-the-tests";

    private static final Duration STARTUP = Duration.ofSeconds(90);
    private static final Duration COMMAND = Duration.ofSeconds(30);
    private static final Duration STOP = Duration.ofSeconds(60);
    private static final Path JAVA_HOME = Path.of(System.getProperty("java.home"));
    /** What {@code Process.exitValue()} reports for a process ended by SIGKILL: 128 + 9. */
    private static final int KILLED = 137;

    private final String name;
    private final Path dir;
    private final Path home;
    private final int clientPort;
    private final int clusterPort;
    private TroupeProcess process;
    private int markers;

    private ClusterNode(String name, Path dir, Path home, int clientPort, int clusterPort) {
        this.name = name;
        this.dir = dir;
        this.home = home;
        this.clientPort = clientPort;
        this.clusterPort = clusterPort;
    }

    /**
     * Copies the distribution to {@code parent/name} with the server on {@code clientPort} and the
     * cluster {@code clusterName} on {@code clusterPort} (bound to 127.0.0.1), joining {@code members}
     * (cluster ports on 127.0.0.1).
     */
    static ClusterNode install(Path parent, String name, int clientPort, int clusterPort, String clusterName,
            List<Integer> members) throws IOException {
        Path dir = Files.createDirectories(parent.resolve(name));
        Path home = TestInstallation.copy(dir, clientPort);
        String memberList = members.stream().map(port -> "127.0.0.1:" + port).collect(Collectors.joining(", "));
        Files.writeString(home.resolve("etc/io.troupe.cluster.cfg"), String.join("\n",
                "clusterName = " + clusterName,
                "members = " + memberList,
                "port = " + clusterPort,
                "bindAddress = 127.0.0.1",
                "publicAddress = 127.0.0.1:" + clusterPort,
                "secret = " + SECRET,
                ""), UTF_8);
        return new ClusterNode(name, dir, home, clientPort, clusterPort);
    }

    /** The node's name in the test ("node1", ...). */
    String name() {
        return name;
    }

    /** The installation folder. */
    Path home() {
        return home;
    }

    /** The client address, {@code 127.0.0.1:PORT}, as the cluster reports it and redirects to it. */
    String address() {
        return "127.0.0.1:" + clientPort;
    }

    int clientPort() {
        return clientPort;
    }

    int clusterPort() {
        return clusterPort;
    }

    /** Whether the node's process runs. */
    boolean running() {
        return process != null && process.isAlive();
    }

    /** Starts {@code bin/troupe} without waiting; {@link #awaitReady} waits. */
    void launch() throws IOException {
        if (running()) {
            throw new IllegalStateException(name + " runs already");
        }
        if (process != null) {
            process.close();
        }
        markers = 0;
        process = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME);
    }

    /** Waits for "Troupe ready" (the plugins are started; the node may still be joining its cluster). */
    void awaitReady() throws InterruptedException {
        process.awaitLineStartingWith("Troupe ready", STARTUP);
    }

    /** What {@code troupe:cluster} prints now. */
    ClusterTable clusterTable() throws IOException, InterruptedException {
        return ClusterTable.parse(shell("troupe:cluster"));
    }

    /**
     * Runs {@code command} in the node's shell and returns the lines it printed: those up to a marker line
     * that the shell prints after it ({@code ask echo MARKER}, answered by the node's own echo actor).
     */
    List<String> shell(String command) throws IOException, InterruptedException {
        String marker = "end-of-command-" + name + "-" + (++markers);
        process.send(command);
        process.send("ask echo " + marker);
        List<String> lines = new ArrayList<>();
        while (true) {
            String line = process.awaitLineStartingWith("", COMMAND);
            if (line.equals(marker)) {
                return lines;
            }
            lines.add(line);
        }
    }

    /**
     * Stops the node as an operator would, with {@code bin/troupe stop} (SIGTERM to the JVM, which hands
     * its tenants over before it ends), and checks that both the command and the node exit with 0.
     */
    void stopGracefully() throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(home.resolve("bin/troupe").toString(), "stop", "--timeout",
                Long.toString(STOP.toSeconds())).directory(dir.toFile()).redirectErrorStream(true);
        builder.environment().remove("JAVA_OPTS");
        builder.environment().put("JAVA_HOME", JAVA_HOME.toString());
        Path output = dir.resolve("stop.out");
        Process stop = builder.redirectOutput(output.toFile()).start();
        stop.getOutputStream().close();
        if (!stop.waitFor(STOP.toSeconds() + 10, TimeUnit.SECONDS)) {
            stop.destroyForcibly();
            throw new AssertionError("bin/troupe stop of " + name + " did not finish within " + STOP);
        }
        assertEquals(0, stop.exitValue(), () -> "bin/troupe stop of " + name + ": " + read(output));
        assertEquals(0, process.awaitExit(STOP), process::transcript);
    }

    /** SIGKILLs the node's JVM (its process id from {@code data/troupe.lock}) and waits until it is gone. */
    void kill() throws IOException, InterruptedException {
        long pid = Long.parseLong(Files.readAllLines(home.resolve("data/troupe.lock"), UTF_8).get(0).trim());
        ProcessHandle jvm = ProcessHandle.of(pid).orElseThrow(() -> new AssertionError(name + "'s JVM " + pid
                + " (data/troupe.lock) is not running"));
        String property = "-Dtroupe.home=" + home.toAbsolutePath();
        assertTrue(jvm.info().arguments().map(List::of).orElse(List.of()).contains(property),
                () -> "process " + pid + " is not the JVM of " + home);
        assertTrue(jvm.destroyForcibly(), "SIGKILL to " + pid + " was not sent");
        try {
            jvm.onExit().get(STOP.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new AssertionError(name + "'s JVM " + pid + " is still there " + STOP + " after SIGKILL", e);
        }
        assertEquals(KILLED, process.awaitExit(STOP), process::transcript);
    }

    /** The text of {@code log/troupe.log}, empty when there is none yet. */
    String log() throws IOException {
        Path log = home.resolve("log/troupe.log");
        return Files.exists(log) ? Files.readString(log, UTF_8) : "";
    }

    /** The first line of {@code log/troupe.log} holding {@code text}, waiting for it up to {@code timeout}. */
    String awaitLogLine(String text, Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Optional<String> line = log().lines().filter(candidate -> candidate.contains(text)).findFirst();
            if (line.isPresent()) {
                return line.get();
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(name + "'s log/troupe.log has no line with '" + text + "' within "
                        + timeout + "\n" + logTail(40));
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
        }
    }

    /** The last {@code count} lines of the log (Hazelcast's own lines left out), for failure messages. */
    String logTail(int count) {
        try {
            List<String> lines = log().lines().filter(line -> !line.contains(" com.hazelcast.")).toList();
            return "--- the last " + count + " Troupe lines of " + name + "'s log ---\n" + String.join("\n",
                    lines.subList(Math.max(0, lines.size() - count), lines.size()));
        } catch (IOException | RuntimeException e) {
            return "--- " + name + "'s log is unreadable: " + e;
        }
    }

    /** What the process printed, for failure messages. */
    String transcript() {
        return process == null ? "(not started)" : process.transcript();
    }

    /** Kills the node if it still runs. */
    @Override
    public void close() {
        if (process != null) {
            process.close();
        }
    }

    @Override
    public String toString() {
        return name + " (client " + address() + ", cluster 127.0.0.1:" + clusterPort + ")";
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, UTF_8);
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }
}
