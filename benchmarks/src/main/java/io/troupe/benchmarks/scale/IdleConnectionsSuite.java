package io.troupe.benchmarks.scale;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.troupe.benchmarks.net.DistributionLocator;
import io.troupe.benchmarks.net.TroupeInstance;
import io.troupe.client.TroupeClient;

/**
 * The scale benchmark: Troupe (a copy of the distribution, heap capped by {@code -Xmx1g}) holding
 * many idle authenticated connections of the demo tenant, opened from this process
 * ({@link IdleConnections}). Measures the time until all are authenticated, the server's heap in
 * use after a full GC before and after ({@link HeapProbe}), hence bytes per connection, and the
 * round trip of {@code echo} requests on a fresh connection while the others stay open.
 *
 * <pre>
 * java -cp benchmarks.jar io.troupe.benchmarks.scale.IdleConnectionsSuite [--quick] [--connections 50000]
 *      [--distribution DIR] [--per-address 20000] [--jvm-opts -Xmx1g]
 * </pre>
 *
 * <p>Needs an open-file limit above the connection count in this process (the server's is raised
 * by the suite); it says what to raise when it is too low. Table on standard output, progress on
 * standard error; exit 0 when every connection and echo succeeded (targets met or not), 1 otherwise,
 * 64 for a bad command line.
 *
 * <p><b>Threading:</b> runs on the main thread.
 */
public final class IdleConnectionsSuite {

    static final int DEFAULT_CONNECTIONS = 50_000;
    static final int QUICK_CONNECTIONS = 2_000;
    private static final int ECHO_WARMUP = 200;
    private static final int ECHO_SAMPLES = 100;
    private static final long GIB = 1L << 30;
    /** File descriptors besides the connections: jars, selectors, pipes, the listening socket. */
    private static final int FD_MARGIN = 1_000;
    private static final long TEN_MILLIS = TimeUnit.MILLISECONDS.toNanos(10);

    private IdleConnectionsSuite() {
    }

    public static void main(String[] args) throws Exception {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        Integer connections = null;
        boolean quick = false;
        String distributionOption = null;
        int perAddress = 20_000;
        String jvmOptions = "-Xmx1g";
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--quick" -> quick = true;
                    case "--connections" -> connections = Integer.parseInt(args[++i]);
                    case "--distribution" -> distributionOption = args[++i];
                    case "--per-address" -> perAddress = Integer.parseInt(args[++i]);
                    case "--jvm-opts" -> jvmOptions = args[++i];
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
        } catch (RuntimeException e) {
            err.println("IdleConnectionsSuite: bad command line " + Arrays.toString(args) + ": " + e.getMessage());
            return 64;
        }
        int requested = connections != null ? connections : quick ? QUICK_CONNECTIONS : DEFAULT_CONNECTIONS;
        long limit = OpenFileLimit.current();
        int count = requested;
        if (limit >= 0 && limit < requested + FD_MARGIN) {
            count = (int) Math.max(0, limit - FD_MARGIN);
            err.println("IdleConnectionsSuite: the open-file limit is " + limit + " (ulimit -n), but " + requested
                    + " connections need about " + (requested + FD_MARGIN) + " in this process and in the "
                    + "server: raise it (as root with CAP_SYS_RESOURCE: `ulimit -n 200000` before java; or the "
                    + "hard limit in /etc/security/limits.conf or the container's settings). Running " + count
                    + " connections instead; the heap for " + requested + " is extrapolated from them.");
            if (count < 1) {
                return 1;
            }
        }
        long needed = count + (long) FD_MARGIN;
        Path distribution;
        try {
            distribution = DistributionLocator.locate(distributionOption);
        } catch (IllegalStateException e) {
            err.println("IdleConnectionsSuite: " + e.getMessage());
            return 1;
        }
        String token = HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
        int port = freePort();
        // the admission limits are sized for this load, as an operator expecting it would: all of it may come
        // from a few addresses and connect at once (their defaults would refuse most of it, on purpose)
        String admitted = Integer.toString(count + 1_000);
        TroupeInstance.Settings settings = new TroupeInstance.Settings(port,
                List.of(new TroupeInstance.Tenant("demo", token, count + 100)), Map.of("maxConnections", admitted,
                        "maxConnectionsPerAddress", admitted, "maxUnauthenticatedConnections", admitted), List.of(), 0,
                jvmOptions, (int) Math.min(Integer.MAX_VALUE, needed + 10_000));
        err.println("IdleConnectionsSuite: starting Troupe (" + jvmOptions + ") for " + count + " connections");
        try (TroupeInstance troupe = TroupeInstance.start(distribution, settings)) {
            long pid = troupe.process().pid();
            long before = settledHeap(pid);
            err.println("IdleConnectionsSuite: heap in use before: " + mib(before));
            IdleConnections idle;
            try {
                idle = IdleConnections.open(port, "demo", token, count, perAddress, 512,
                        opened -> err.println("IdleConnectionsSuite: " + opened + " connecting or connected"));
            } catch (IOException e) {
                err.println("IdleConnectionsSuite: " + e);
                return 1;
            }
            try (idle) {
                err.printf(Locale.ROOT, "IdleConnectionsSuite: %d connected in %.2f s, %d failed%s%n", idle.opened(),
                        idle.elapsedNanos() / 1e9, idle.failures(),
                        idle.firstFailure() == null ? "" : " (first: " + idle.firstFailure() + ")");
                long after = HeapProbe.usedAfterFullGc(pid);
                long[] echo = echoRoundTrips(port, token);
                print(out, requested, count, idle, before, after, echo, jvmOptions, limit);
                if (idle.failures() > 0 || echo == null) {
                    err.println("IdleConnectionsSuite: errors: " + idle.failures() + " connections failed"
                            + (echo == null ? ", echo failed" : "") + "\n--- server output ---\n"
                            + troupe.process().transcript());
                    return 1;
                }
            }
            troupe.stop();
        }
        return 0;
    }

    /** Sorted round-trip times in nanoseconds of {@link #ECHO_SAMPLES} echoes, after a warm-up; null on failure. */
    private static long[] echoRoundTrips(int port, String token) {
        byte[] payload = new byte[64];
        try (TroupeClient client = TroupeClient.builder().port(port).tenant("demo").token(token).reconnect(false)
                .build()) {
            client.connect().get(30, TimeUnit.SECONDS);
            for (int i = 0; i < ECHO_WARMUP; i++) {
                client.request("echo", payload).get(30, TimeUnit.SECONDS);
            }
            long[] samples = new long[ECHO_SAMPLES];
            for (int i = 0; i < samples.length; i++) {
                long start = System.nanoTime();
                byte[] reply = client.request("echo", payload).get(30, TimeUnit.SECONDS);
                samples[i] = System.nanoTime() - start;
                if (reply.length != payload.length) {
                    return null;
                }
            }
            Arrays.sort(samples);
            return samples;
        } catch (Exception e) {
            return null;
        }
    }

    /**
     * The heap in use after a full GC once it stopped falling: just after "Troupe ready" parts still finish
     * starting (the HTTP endpoint binds, the console takes its first samples) and hold transient objects that
     * a reading at that moment would count, and then miss, making the connections look cheaper than they are.
     * Reads until two readings half a second apart are within 64 KiB, at most 10 times.
     */
    private static long settledHeap(long pid) throws IOException, InterruptedException {
        long previous = HeapProbe.usedAfterFullGc(pid);
        for (int i = 0; i < 10; i++) {
            Thread.sleep(500);
            long now = HeapProbe.usedAfterFullGc(pid);
            if (Math.abs(now - previous) < 64 * 1024) {
                return Math.min(now, previous);
            }
            previous = now;
        }
        return previous;
    }

    private static void print(PrintStream out, int requested, int count, IdleConnections idle, long before,
            long after, long[] echo, String jvmOptions, long openFileLimit) {
        long perConnection = idle.opened() == 0 ? 0 : (after - before) / idle.opened();
        long extrapolated = before + perConnection * requested;
        out.println("| measure | value | target | met |");
        out.println("|---|---:|---|---|");
        out.printf(Locale.ROOT, "| idle authenticated connections | %,d of %,d | %,d | %s |%n", idle.opened(), count,
                requested, met(idle.opened() == requested));
        out.printf(Locale.ROOT, "| time to connect and authenticate all | %.2f s | — | — |%n",
                idle.elapsedNanos() / 1e9);
        out.printf(Locale.ROOT, "| server heap in use after full GC, before | %s | — | — |%n", mib(before));
        out.printf(Locale.ROOT, "| server heap in use after full GC, with the connections | %s | < 1 GiB | %s |%n",
                mib(after), met(after < GIB));
        out.printf(Locale.ROOT, "| heap per connection | %,d B | — | — |%n", perConnection);
        if (count < requested) {
            out.printf(Locale.ROOT, "| server heap extrapolated to %,d connections | %s | < 1 GiB | %s |%n", requested,
                    mib(extrapolated), met(extrapolated < GIB));
        }
        if (echo != null) {
            out.printf(Locale.ROOT, "| echo round trip meanwhile, p50 of %d | %.3f ms | — | — |%n", echo.length,
                    echo[echo.length / 2] / 1e6);
            out.printf(Locale.ROOT, "| echo round trip meanwhile, max of %d | %.3f ms | < 10 ms | %s |%n", echo.length,
                    echo[echo.length - 1] / 1e6, met(echo[echo.length - 1] < TEN_MILLIS));
        } else {
            out.println("| echo round trip meanwhile | failed | < 10 ms | **no** |");
        }
        out.println();
        if (count < requested) {
            out.printf(Locale.ROOT, "**%,d connections were requested, but the open-file limit (ulimit -n) is %,d:"
                    + " %,d were opened, and the heap for %,d is extrapolated from them. Raise the limit to run "
                    + "them all.**%n%n", requested, openFileLimit, count, requested);
        }
        out.println("Server: Troupe distribution defaults with JAVA_OPTS=" + jvmOptions + ", idle timeout off, tenant "
                + "limit above the count; clients: one process, 2 IO threads, from 127.0.0.2 and up, a port each, at most 512 "
                + "handshakes at once. Heap: jcmd GC.run then GC.heap_info.");
        out.flush();
    }

    private static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
    }

    private static String met(boolean met) {
        return met ? "yes" : "**no**";
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
