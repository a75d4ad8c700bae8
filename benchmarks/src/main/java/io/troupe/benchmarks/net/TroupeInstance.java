package io.troupe.benchmarks.net;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A temporary copy of the distribution, configured for one benchmark and run with its own
 * {@code bin/troupe}: the copy leaves the original untouched (its {@code etc/}, {@code data/} and
 * {@code log/}), and is deleted when closed.
 *
 * <p>The suite writes {@code etc/io.troupe.server.cfg} (loopback, the port, the idle timeout) and
 * {@code etc/io.troupe.tenant-<tenant>.cfg} (the token, the connection limit), passes
 * {@code JAVA_OPTS}, and raises the open-file limit of the server process where the system allows
 * ({@code ulimit -n} in the shell that execs {@code bin/troupe}).
 *
 * <p><b>Threading:</b> one suite thread.
 */
public final class TroupeInstance implements AutoCloseable {

    /**
     * @param port               the server port
     * @param tenant             the tenant to create
     * @param token              its token
     * @param maxConnections     the tenant's connection limit
     * @param idleTimeoutSeconds the server's idle timeout (0: never)
     * @param javaOpts           JAVA_OPTS for the server JVM
     * @param openFiles          the open-file limit to ask for
     */
    public record Settings(int port, String tenant, String token, int maxConnections, int idleTimeoutSeconds,
            String javaOpts, int openFiles) {
    }

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);

    private final Path home;
    private final ServerProcess process;

    private TroupeInstance(Path home, ServerProcess process) {
        this.home = home;
        this.process = process;
    }

    /** Copies {@code distribution}, configures the copy, starts it and waits for "Troupe ready". */
    public static TroupeInstance start(Path distribution, Settings settings) throws IOException, InterruptedException {
        Path home = Files.createTempDirectory("troupe-bench-");
        try {
            copy(distribution, home);
            configure(home, settings);
            String script = "ulimit -n " + settings.openFiles() + " 2>/dev/null; exec \"$0\"";
            ServerProcess process = ServerProcess.start("troupe", List.of("bash", "-c", script,
                    home.resolve("bin/troupe").toString()), home, Map.of("JAVA_OPTS", settings.javaOpts()),
                    "Troupe ready", READY_TIMEOUT);
            return new TroupeInstance(home, process);
        } catch (IOException | InterruptedException | RuntimeException e) {
            delete(home);
            throw e;
        }
    }

    public ServerProcess process() {
        return process;
    }

    public Path home() {
        return home;
    }

    /** SIGTERM, wait for the exit; returns the exit status (-1 when it had to be killed). */
    public int stop() throws InterruptedException {
        return process.stop(STOP_TIMEOUT);
    }

    @Override
    public void close() {
        process.close();
        delete(home);
    }

    private static void configure(Path home, Settings settings) throws IOException {
        Path etc = home.resolve("etc");
        try (Stream<Path> files = Files.list(etc)) {
            for (Path tenantFile : files.filter(f -> f.getFileName().toString().startsWith("io.troupe.tenant-"))
                    .toList()) {
                Files.delete(tenantFile);
            }
        }
        Files.writeString(etc.resolve("io.troupe.server.cfg"), """
                # written by the benchmark suite
                host = 127.0.0.1
                port = %d
                idleTimeoutSeconds = %d
                """.formatted(settings.port(), settings.idleTimeoutSeconds()), StandardCharsets.UTF_8);
        Files.writeString(etc.resolve("io.troupe.tenant-" + settings.tenant() + ".cfg"), """
                # written by the benchmark suite
                token = %s
                maxConnections = %d
                """.formatted(settings.token(), settings.maxConnections()), StandardCharsets.UTF_8);
    }

    /** Copies the installation without its run-time state (data/, log/). */
    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path source : paths.toList()) {
                Path relative = from.relativize(source);
                String top = relative.getNameCount() == 0 ? "" : relative.getName(0).toString();
                if ((top.equals("data") || top.equals("log")) && relative.getNameCount() > 1) {
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

    private static void delete(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }
}
