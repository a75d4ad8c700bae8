package io.troupe.benchmarks.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.troupe.benchmarks.net.ServerProcess;

/**
 * One node of the benchmark's cluster: a copy of the distribution under the suite's work folder (without
 * the original's {@code data/} and {@code log/}), with {@code etc/io.troupe.server.cfg} (loopback, its
 * client port) and {@code etc/io.troupe.cluster.cfg} (its cluster port, bound to 127.0.0.1, and the
 * members to join), run with its own {@code bin/troupe} and stopped as an operator would, with
 * {@code bin/troupe stop} (the node hands its tenants over first).
 *
 * <p><b>Threading:</b> one suite thread.
 */
final class BenchNode implements AutoCloseable {

    static final String SECRET = "a-long-shared-secret-for-the-benchmark";
    private static final Duration READY = Duration.ofSeconds(120);
    private static final Duration STOP = Duration.ofSeconds(60);
    private static final Duration COMMAND = Duration.ofSeconds(30);
    private static final long POLL_MILLIS = 200;

    private final String name;
    private final Path home;
    private final int clientPort;
    private final int clusterPort;
    private ServerProcess process;

    private BenchNode(String name, Path home, int clientPort, int clusterPort) {
        this.name = name;
        this.home = home;
        this.clientPort = clientPort;
        this.clusterPort = clusterPort;
    }

    /** Copies {@code distribution} to {@code work/name} and configures the copy. */
    static BenchNode install(Path distribution, Path work, String name, int clientPort, int clusterPort,
            List<Integer> members) throws IOException {
        Path home = work.resolve(name);
        copy(distribution, home);
        io.troupe.benchmarks.net.HttpEndpointPort.useFreePort(home);
        Path etc = home.resolve("etc");
        Files.writeString(etc.resolve("io.troupe.server.cfg"), """
                # written by the cluster benchmark
                host = 127.0.0.1
                port = %d
                """.formatted(clientPort), StandardCharsets.UTF_8);
        String memberList = members.stream().map(port -> "127.0.0.1:" + port).collect(Collectors.joining(", "));
        Files.writeString(etc.resolve("io.troupe.cluster.cfg"), """
                # written by the cluster benchmark
                clusterName = bench
                members = %s
                port = %d
                bindAddress = 127.0.0.1
                publicAddress = 127.0.0.1:%d
                secret = %s
                """.formatted(memberList, clusterPort, clusterPort, SECRET), StandardCharsets.UTF_8);
        return new BenchNode(name, home, clientPort, clusterPort);
    }

    String name() {
        return name;
    }

    Path home() {
        return home;
    }

    /** The client address, {@code 127.0.0.1:PORT}. */
    String address() {
        return "127.0.0.1:" + clientPort;
    }

    int clusterPort() {
        return clusterPort;
    }

    boolean running() {
        return process != null;
    }

    /** Starts {@code bin/troupe} with {@code javaOpts} and waits for "Troupe ready" (it may still be joining). */
    void launch(String javaOpts) throws IOException, InterruptedException {
        List<String> command = List.of("bash", "-c", "exec \"$0\"", home.resolve("bin/troupe").toString());
        process = ServerProcess.start(name, command, home, Map.of("JAVA_OPTS", javaOpts), "Troupe ready", READY);
    }

    /**
     * Waits until {@code troupe:cluster} (typed on the node's standard input) reports a cluster of
     * {@code members} members: the node has joined and serves its tenants.
     */
    void awaitJoined(int members) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + READY.toNanos();
        String wanted = ": " + members + " members;";
        String last;
        while (true) {
            // the first line after the command: "cluster NAME: N members; this node ID", or "(this node is not in
            // a cluster ...)" while it joins (a late line of an earlier answer is possible too: asked again)
            last = process.command("troupe:cluster", "", COMMAND);
            if (last.startsWith("cluster ") && last.contains(wanted)) {
                return;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IOException(name + " is not in a cluster of " + members + " within " + READY.toSeconds()
                        + " s; troupe:cluster says: " + last);
            }
            Thread.sleep(POLL_MILLIS);
        }
    }

    /** {@code bin/troupe stop}: SIGTERM to the node, which hands its tenants over, then waits for its end. */
    void stopGracefully() throws IOException, InterruptedException {
        Process stop = new ProcessBuilder(home.resolve("bin/troupe").toString(), "stop", "--timeout",
                Long.toString(STOP.toSeconds())).directory(home.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        stop.getOutputStream().close();
        if (!stop.waitFor(STOP.toSeconds() + 10, TimeUnit.SECONDS) || stop.exitValue() != 0) {
            stop.destroyForcibly();
            throw new IOException("bin/troupe stop of " + name + " failed");
        }
        process.close();
        process = null;
    }

    /** {@code kill -9}: the node's JVM dies at once (the launcher execs it), handing nothing over. */
    void kill() {
        close();
    }

    /** The lines of {@code log/troupe.log} (the logger writes about once a second). */
    List<String> logLines() throws IOException {
        Path log = home.resolve("log/troupe.log");
        if (!Files.exists(log)) {
            return List.of();
        }
        try (Stream<String> lines = Files.lines(log, StandardCharsets.UTF_8)) {
            return lines.toList();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** Kills the node if it still runs. */
    @Override
    public void close() {
        if (process != null) {
            process.close();
            process = null;
        }
    }

    @Override
    public String toString() {
        return name + " (" + address() + ")";
    }

    /** Copies the installation without its run-time state (data/, log/) and without tenant files. */
    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path source : paths.toList()) {
                Path relative = from.relativize(source);
                String top = relative.getNameCount() == 0 ? "" : relative.getName(0).toString();
                if ((top.equals("data") || top.equals("log")) && relative.getNameCount() > 1
                        || relative.getFileName().toString().startsWith("io.troupe.tenant-")) {
                    continue;
                }
                Path target = to.resolve(relative.toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target, StandardCopyOption.COPY_ATTRIBUTES, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }
}
