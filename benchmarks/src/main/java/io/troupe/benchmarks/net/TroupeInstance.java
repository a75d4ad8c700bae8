package io.troupe.benchmarks.net;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A temporary copy of the distribution, configured for one benchmark and run with its own
 * {@code bin/troupe}: the copy leaves the original untouched (its {@code etc/}, {@code data/} and
 * {@code log/}), and is deleted when closed.
 *
 * <p>The suite writes {@code etc/io.troupe.server.cfg} (loopback, the port, the idle timeout, any
 * further server keys) and one {@code etc/io.troupe.tenant-<id>.cfg} per tenant (the token, the
 * connection limit, any further keys such as {@code weight}), removes the distribution's own tenant
 * files, copies extra plugin jars into {@code deploy/}, passes {@code JAVA_OPTS}, and raises the
 * open-file limit of the server process where the system allows ({@code ulimit -n} in the shell that
 * execs {@code bin/troupe}).
 *
 * <p><b>Threading:</b> one suite thread.
 */
public final class TroupeInstance implements AutoCloseable {

    /**
     * One tenant file, {@code etc/io.troupe.tenant-<id>.cfg}.
     *
     * @param id             the tenant id
     * @param token          its token
     * @param maxConnections its connection limit
     * @param keys           further keys and their values, written in this order after the two above
     *                       (for example {@code weight}); the server decides whether it knows them
     */
    public record Tenant(String id, String token, int maxConnections, Map<String, String> keys) {

        public Tenant {
            keys = Collections.unmodifiableMap(new LinkedHashMap<>(keys));
        }

        /** A tenant with a token and a connection limit only. */
        public Tenant(String id, String token, int maxConnections) {
            this(id, token, maxConnections, Map.of());
        }
    }

    /**
     * @param port               the server port
     * @param tenants            the tenants to create (the distribution's own are removed)
     * @param serverKeys         keys of {@code etc/io.troupe.server.cfg} besides host, port and idle
     *                           timeout (for example {@code maxFrameBytes}), in this order
     * @param plugins            plugin jars to copy into {@code deploy/} besides the distribution's
     * @param idleTimeoutSeconds the server's idle timeout (0: never)
     * @param javaOpts           JAVA_OPTS for the server JVM
     * @param openFiles          the open-file limit to ask for
     */
    public record Settings(int port, List<Tenant> tenants, Map<String, String> serverKeys, List<Path> plugins,
            int idleTimeoutSeconds, String javaOpts, int openFiles) {

        public Settings {
            tenants = List.copyOf(tenants);
            serverKeys = Collections.unmodifiableMap(new LinkedHashMap<>(serverKeys));
            plugins = List.copyOf(plugins);
        }

        /** One tenant, the server's defaults, the distribution's plugins. */
        public Settings(int port, String tenant, String token, int maxConnections, int idleTimeoutSeconds,
                String javaOpts, int openFiles) {
            this(port, List.of(new Tenant(tenant, token, maxConnections)), Map.of(), List.of(), idleTimeoutSeconds,
                    javaOpts, openFiles);
        }
    }

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);

    private final Path home;
    private final Settings settings;
    private final ServerProcess process;

    private TroupeInstance(Path home, Settings settings, ServerProcess process) {
        this.home = home;
        this.settings = settings;
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
            return new TroupeInstance(home, settings, process);
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

    /** The server's log file in the copy ({@code log/troupe.log}), which the logger flushes about once a second. */
    public Path logFile() {
        return home.resolve("log/troupe.log");
    }

    /**
     * Rewrites {@code etc/io.troupe.server.cfg} with the settings' keys and then {@code extraKeys}
     * (which win); the running server applies the change itself, a moment later.
     */
    public void reconfigureServer(Map<String, String> extraKeys) throws IOException {
        Map<String, String> keys = new LinkedHashMap<>(settings.serverKeys());
        keys.putAll(extraKeys);
        writeServerConfig(home.resolve("etc"), settings, keys);
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
        writeServerConfig(etc, settings, settings.serverKeys());
        HttpEndpointPort.useFreePort(home);
        for (Tenant tenant : settings.tenants()) {
            StringBuilder text = new StringBuilder("""
                    # written by the benchmark suite
                    token = %s
                    maxConnections = %d
                    """.formatted(tenant.token(), tenant.maxConnections()));
            tenant.keys().forEach((key, value) -> text.append(key).append(" = ").append(value).append('\n'));
            Files.writeString(etc.resolve("io.troupe.tenant-" + tenant.id() + ".cfg"), text, StandardCharsets.UTF_8);
        }
        Path deploy = home.resolve("deploy");
        for (Path plugin : settings.plugins()) {
            Files.copy(plugin, deploy.resolve(plugin.getFileName().toString()), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static void writeServerConfig(Path etc, Settings settings, Map<String, String> keys) throws IOException {
        StringBuilder text = new StringBuilder("""
                # written by the benchmark suite
                host = 127.0.0.1
                port = %d
                idleTimeoutSeconds = %d
                """.formatted(settings.port(), settings.idleTimeoutSeconds()));
        keys.forEach((key, value) -> text.append(key).append(" = ").append(value).append('\n'));
        // written beside and moved, so that FileInstall never reads half a file
        Path target = etc.resolve("io.troupe.server.cfg");
        Path partial = etc.resolve("io.troupe.server.cfg.partial");
        Files.writeString(partial, text, StandardCharsets.UTF_8);
        Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
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
