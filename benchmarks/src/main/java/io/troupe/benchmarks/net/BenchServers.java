package io.troupe.benchmarks.net;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Starts each {@link ServerKind} as its own process on a free loopback port, all with the same JVM
 * options: Troupe from a {@link TroupeInstance} (a configured copy of the distribution), the Netty
 * servers with {@code java -cp <the benchmark class path>} ({@link #classPath()}).
 *
 * <p><b>Threading:</b> one suite thread.
 */
public final class BenchServers {

    /** A started server; {@link #close()} stops it (SIGTERM, then kill) and removes what it left. */
    static final class Running implements AutoCloseable {
        private final ServerKind kind;
        private final int port;
        private final ServerProcess process;
        private final TroupeInstance troupe;
        /** Attached on the first {@link #usage}; null before, and when attaching failed. */
        private AllocationCounter allocation;
        private boolean attachTried;

        private Running(ServerKind kind, int port, ServerProcess process, TroupeInstance troupe) {
            this.kind = kind;
            this.port = port;
            this.process = process;
            this.troupe = troupe;
        }

        int port() {
            return port;
        }

        ServerKind kind() {
            return kind;
        }

        /** SIGTERM and wait; the exit status, -1 when it had to be killed. */
        int stop() throws InterruptedException {
            return process.stop(STOP_TIMEOUT);
        }

        /** The server process's CPU time so far. */
        Duration cpuTime() {
            return process.cpuTime();
        }

        /**
         * What the server has used so far: its CPU time, and the bytes its threads allocated when the
         * suite can attach to its JVM (tried once; without it, {@link ServerUsage#allocated} is null).
         */
        synchronized ServerUsage usage() {
            if (!attachTried) {
                attachTried = true;
                try {
                    allocation = AllocationCounter.attach(process.pid());
                } catch (IOException | RuntimeException e) {
                    System.err.println("BenchServers: " + kind.label() + ": allocation not measured: " + e);
                }
            }
            return new ServerUsage(cpuTime().toNanos(), allocation == null ? null : allocation.byThread());
        }

        String transcript() {
            return process.transcript();
        }

        @Override
        public void close() {
            synchronized (this) {
                if (allocation != null) {
                    try {
                        allocation.close();
                    } catch (IOException e) {
                        // the server is going away: its management connection with it
                    }
                    allocation = null;
                }
            }
            if (troupe != null) {
                troupe.close();
            } else {
                process.close();
            }
        }
    }

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    /** Connections Troupe admits from one address, and before their HELLO: above the largest shape. */
    private static final String ADMITTED = "10000";
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);
    /** Netty logs through SLF4J when present: keep the benchmark servers' logging out of the way. */
    private static final String NO_LOGGING = "-Dslf4j.provider=org.slf4j.helpers.NOP_FallbackServiceProvider";

    private final Path distribution;
    private final String tenant;
    private final String token;
    private final String jvmOptions;
    /** The servers' key and certificate, or null for plaintext. */
    private final ServerKeys tls;

    /**
     * @param jvmOptions options for every server JVM, split on white space
     */
    BenchServers(Path distribution, String tenant, String token, String jvmOptions) {
        this(distribution, tenant, token, jvmOptions, null);
    }

    /**
     * @param tls the key and certificate every server speaks TLS with (TLS 1.3, the JDK's provider), or
     *            null for plaintext
     */
    BenchServers(Path distribution, String tenant, String token, String jvmOptions, ServerKeys tls) {
        this.distribution = distribution;
        this.tenant = tenant;
        this.token = token;
        this.jvmOptions = jvmOptions;
        this.tls = tls;
    }

    Running start(ServerKind kind) throws IOException, InterruptedException {
        int port = freePort();
        return switch (kind) {
            case TROUPE -> {
                // admission sized for the shapes, as an operator expecting them would: every connection comes
                // from 127.0.0.1 and connects at once (the defaults, an eighth and a quarter of the file limit,
                // would refuse most of 5000 on purpose)
                Map<String, String> keys = new LinkedHashMap<>(Map.of("maxConnectionsPerAddress", ADMITTED,
                        "maxUnauthenticatedConnections", ADMITTED));
                if (tls != null) {
                    keys.put("tls.keystore", tls.keystore().toString());
                    keys.put("tls.keystorePassword", tls.password());
                }
                TroupeInstance troupe = TroupeInstance.start(distribution, new TroupeInstance.Settings(port,
                        List.of(new TroupeInstance.Tenant(tenant, token, 100_000)), keys, List.of(), 0, jvmOptions,
                        100_000));
                yield new Running(kind, port, troupe.process(), troupe);
            }
            case NETTY_PEKKO -> new Running(kind, port, startJava(NettyPekkoServer.class, port), null);
            case PLAIN_NETTY -> new Running(kind, port, startJava(PlainNettyServer.class, port), null);
        };
    }

    private ServerProcess startJava(Class<?> main, int port) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String option : jvmOptions.trim().split("\\s+")) {
            if (!option.isEmpty()) {
                command.add(option);
            }
        }
        command.addAll(List.of(NO_LOGGING, "-cp", classPath(), main.getName(),
                "--port", Integer.toString(port), "--tenant", tenant, "--token", token));
        if (tls != null) {
            command.addAll(List.of("--tls-keystore", tls.keystore().toString(), "--tls-password", tls.password()));
        }
        return ServerProcess.start(main.getSimpleName(), command, Path.of("").toAbsolutePath(), Map.of(),
                main.getSimpleName() + " ready", READY_TIMEOUT);
    }

    /**
     * The class path of the server JVMs: this JVM's, or the system property
     * {@code troupe.bench.classpath} where this JVM's is not the real one (a test runner's launcher
     * jar).
     */
    private static String classPath() {
        return System.getProperty("troupe.bench.classpath", System.getProperty("java.class.path"));
    }

    /** A loopback port nothing listens on now (the server binds it a moment later); for every suite. */
    public static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
