package io.troupe.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

import io.troupe.testsupport.FreePorts;

/**
 * A private copy of the built distribution for one test, under a folder with a blank in its name (a
 * path with spaces must work), listening on a free loopback port; and what a test does to such a copy from
 * outside: finding its running JVM, killing it, deploying with its {@code bin/troupe-client}.
 *
 * <p><b>Threading:</b> stateless; the test thread (each method blocks the calling thread, within the bounds
 * it is given).
 */
final class TestInstallation {

    /** The framework property line that turns the failed-HELLO throttle off. */
    static final String THROTTLE_OFF = "troupe.auth.throttle=false";

    private TestInstallation() {
    }

    /**
     * Copies the built distribution ({@code troupe.distribution}, else {@code target/troupe}) to
     * {@code dir/troupe home}, sets {@code etc/io.troupe.server.cfg}'s port to {@code port} and gives the HTTP
     * endpoint ({@code etc/io.troupe.http.cfg}) a free port of its own.
     *
     * @return the copy's folder
     */
    static Path copy(Path dir, int port) throws IOException {
        Path built = Path.of(System.getProperty("troupe.distribution", "target/troupe"));
        assertTrue(Files.isExecutable(built.resolve("bin/troupe")), "bin/troupe is not executable in " + built);
        Path home = dir.resolve("troupe home");
        copyTree(built, home);
        Path serverConfig = home.resolve("etc/io.troupe.server.cfg");
        String config = Files.readString(serverConfig).replaceFirst("(?m)^port = 7878$", "port = " + port);
        assertTrue(config.contains("port = " + port), "etc/io.troupe.server.cfg has no line 'port = 7878'");
        Files.writeString(serverConfig, config);
        // The HTTP endpoint's shipped port is one for the whole machine: each installation gets its own, so that
        // tests and cluster nodes side by side do not fight over it (HttpEndpoint.port() reads it).
        Path httpConfig = home.resolve("etc/io.troupe.http.cfg");
        int httpPort;
        do {
            httpPort = freePort();
        } while (httpPort == port);
        String http = Files.readString(httpConfig).replaceFirst("(?m)^port = 7879$", "port = " + httpPort);
        assertTrue(http.contains("port = " + httpPort), "etc/io.troupe.http.cfg has no line 'port = 7879'");
        Files.writeString(httpConfig, http);
        // These tests poll with HELLOs until a tenant file is loaded: not an attack for the failed-HELLO throttle
        // (FailedHelloIT turns it back on).
        Files.writeString(home.resolve("etc/config.properties"), "\n" + THROTTLE_OFF + "\n",
                StandardOpenOption.APPEND);
        return home;
    }

    /**
     * The JVM of the installation in {@code home}: the one process whose command line carries
     * {@code -Dtroupe.home=<home>} ({@code bin/troupe} execs it).
     *
     * @throws AssertionError unless exactly one such process runs
     */
    static ProcessHandle jvm(Path home) {
        String property = "-Dtroupe.home=" + home.toAbsolutePath();
        List<ProcessHandle> found = ProcessHandle.allProcesses()
                .filter(process -> process.info().arguments().map(List::of).orElse(List.of()).contains(property))
                .toList();
        assertEquals(1, found.size(), () -> "not one JVM with " + property + ": " + found);
        return found.get(0);
    }

    /**
     * Sends SIGKILL to {@code jvm} and waits until it is gone.
     *
     * @throws AssertionError when the signal is not sent, or the process is still there {@code timeout} after
     */
    static void kill(ProcessHandle jvm, Duration timeout) throws InterruptedException {
        assertTrue(jvm.destroyForcibly(), "SIGKILL to " + jvm.pid() + " was not sent");
        try {
            jvm.onExit().get(timeout.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new AssertionError("the JVM " + jvm.pid() + " is still there " + timeout + " after SIGKILL", e);
        }
    }

    /**
     * Runs {@code bin/troupe-client deploy JAR} of the installation in {@code home}, in {@code workingDir}
     * with {@code JAVA_HOME} set to {@code javaHome} and {@code JAVA_OPTS} unset; the command returns once the
     * host runs the jar (or refused it). Its output (both streams) goes to a new file in {@code workingDir}.
     *
     * @return what the command printed
     * @throws AssertionError unless it exits 0 within {@code timeout}
     */
    static String clientDeploy(Path home, Path workingDir, Path javaHome, Path jar, Duration timeout)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(home.resolve("bin/troupe-client").toString(), "deploy",
                jar.toString()).directory(workingDir.toFile()).redirectErrorStream(true);
        builder.environment().remove("JAVA_OPTS");
        builder.environment().put("JAVA_HOME", javaHome.toString());
        Path output = Files.createTempFile(workingDir, "deploy-", ".out");
        Process deploy = builder.redirectOutput(output.toFile()).start();
        deploy.getOutputStream().close();
        if (!deploy.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
            deploy.destroyForcibly();
            throw new AssertionError("troupe-client deploy did not finish within " + timeout + ": "
                    + Files.readString(output));
        }
        String said = Files.readString(output);
        assertEquals(0, deploy.exitValue(), said);
        return said;
    }

    /** A loopback port free now, below the ephemeral range (see {@link FreePorts}). */
    static int freePort() {
        return FreePorts.one();
    }

    /** Copies {@code source} to {@code target}, file attributes (the scripts' execute bits) included. */
    static void copyTree(Path source, Path target) throws IOException {
        try (Stream<Path> paths = Files.walk(source)) {
            for (Path path : (Iterable<Path>) paths::iterator) {
                Path copy = target.resolve(source.relativize(path).toString());
                if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
                    Files.createDirectories(copy);
                } else {
                    Files.copy(path, copy, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }
}
