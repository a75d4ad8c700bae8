package io.troupe.benchmarks.net;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * The network benchmark: one load generator ({@code troupe-client bench}, {@link LoadGenerator})
 * against three protocol-v1 servers started on loopback, each in its own JVM with the same options:
 * Troupe with the echo plugin (a copy of the distribution), {@link NettyPekkoServer} and
 * {@link PlainNettyServer}. All three are started first; then each shape runs against each server in
 * turn (who goes first rotating from shape to shape), so that the servers of one shape see the same
 * machine. Then, at each light rate, each server answers one connection sending that many requests/s
 * ({@code --rate}) while its CPU time is taken, for the CPU per request of a mostly idle server. The
 * markdown tables ({@link NetworkReport}) go to standard output, progress to standard error.
 *
 * <pre>
 * java -cp benchmarks.jar io.troupe.benchmarks.net.NetworkSuite [--quick] [--distribution DIR]
 *      [--warmup 3s] [--duration 10s] [--shapes 1x1x64,64x16x64,...] [--servers troupe,netty-pekko,plain-netty]
 *      [--jvm-opts "-Xms1g -Xmx1g"] [--rounds 1] [--light-rates 100,1000,10000|none]
 * </pre>
 *
 * <p>Exit status 0 when every run completed without errors (targets missed or not), 1 when a
 * server failed to start or a bench failed or counted errors, 64 for a bad command line.
 *
 * <p><b>Threading:</b> runs on the main thread.
 */
public final class NetworkSuite {

    static final String DEFAULT_JVM_OPTS = "-Xms1g -Xmx1g -XX:+AlwaysPreTouch";

    private NetworkSuite() {
    }

    public static void main(String[] args) throws InterruptedException {
        System.exit(run(args, System.out, System.err));
    }

    /** Payloads from this size up count as large frames ({@link #LARGE_FRAME_WARMUP_FACTOR}). */
    static final int LARGE_FRAME_BYTES = 65_536;
    /**
     * Large-frame runs warm up this many times longer (15 s by default): after the usual 3 s, every
     * server's JIT is still compiling the paths of 64 KiB frames (on 2026-12-04 Troupe made 2,040
     * req/s and plain Netty 4,730 after 3 s, 10,000 to 12,000 after 15 s).
     */
    static final int LARGE_FRAME_WARMUP_FACTOR = 5;

    /** The load generator for {@code shape}: the suite's, warming up longer for large frames. */
    static LoadGenerator forShape(LoadGenerator load, Shape shape) {
        if (shape.size() < LARGE_FRAME_BYTES) {
            return load;
        }
        long millis = UsageWindow.nanos(load.warmup()) / 1_000_000 * LARGE_FRAME_WARMUP_FACTOR;
        return load.warmingUpFor(millis + "ms");
    }

    private static void measure(LoadGenerator suiteLoad, BenchServers.Running server, Shape shape,
            NetworkReport report, List<String> failures, PrintStream err) throws InterruptedException {
        LoadGenerator load = forShape(suiteLoad, shape);
        String what = server.kind().label() + " " + shape.label();
        err.println("NetworkSuite: " + what);
        try {
            UsageWindow window = new UsageWindow(server::usage, load.warmup(), load.duration());
            BenchResult result = load.run(server.port(), shape, 0, line -> {
                if (line.startsWith("troupe-client bench: warming up")) {
                    window.start();
                }
            });
            NetworkReport.Usage usage = new NetworkReport.Usage(window.cpuNanos(), window.allocatedBytes(),
                    window.seconds());
            report.add(shape, server.kind(), result, usage);
            err.printf(Locale.ROOT, "NetworkSuite:   %,.0f req/s, p50 %s, p99 %s, errors %d, server CPU %.1f µs and "
                    + "%s per request%n", result.requestsPerSecond(), BenchResult.millis(result.p50Nanos()),
                    BenchResult.millis(result.p99Nanos()), result.errors(), usage.cpuMicrosPerRequest(result),
                    NetworkReport.bytes(usage.allocatedPerRequest(result)));
        } catch (IOException | IllegalStateException e) {
            failures.add(what + ": " + e.getMessage());
            err.println("NetworkSuite: " + what + " failed: " + e.getMessage() + "\n--- server output ---\n"
                    + server.transcript());
        }
    }

    /** One connection at a fixed rate, up to 16 requests in flight (so a late one does not hold back the next). */
    static final Shape LIGHT_SHAPE = new Shape(1, 16, 64);

    private static void measureLight(LoadGenerator load, BenchServers.Running server, int rate, SuiteOptions options,
            NetworkReport report, List<String> failures, PrintStream err) throws InterruptedException {
        String what = server.kind().label() + " at " + rate + " req/s";
        err.println("NetworkSuite: " + what);
        try {
            UsageWindow window = new UsageWindow(server::usage, options.warmup(), options.duration());
            BenchResult result = load.run(server.port(), LIGHT_SHAPE, rate, line -> {
                if (line.startsWith("troupe-client bench: warming up")) {
                    window.start();
                }
            });
            NetworkReport.LightRun run = new NetworkReport.LightRun(rate, server.kind(), result, window.cpuNanos(),
                    window.seconds());
            report.addLight(run);
            err.printf(Locale.ROOT, "NetworkSuite:   %,.0f req/s, p50 %s, server CPU %.1f %%, %.1f µs per request%n",
                    result.requestsPerSecond(), BenchResult.millis(result.p50Nanos()), run.cpuPercent(),
                    run.cpuMicrosPerRequest());
        } catch (IOException | IllegalStateException e) {
            failures.add(what + ": " + e.getMessage());
            err.println("NetworkSuite: " + what + " failed: " + e.getMessage());
        }
    }

    /** Runs the suite; returns the exit status. */
    static int run(String[] args, PrintStream out, PrintStream err) throws InterruptedException {
        SuiteOptions options;
        try {
            options = SuiteOptions.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("NetworkSuite: " + e.getMessage());
            return 64;
        }
        Path distribution;
        try {
            distribution = DistributionLocator.locate(options.distribution());
        } catch (IllegalStateException e) {
            err.println("NetworkSuite: " + e.getMessage());
            return 1;
        }
        String token = HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
        BenchServers servers = new BenchServers(distribution, "demo", token, options.jvmOptions());
        LoadGenerator load = new LoadGenerator(distribution, "demo", token, options.warmup(), options.duration());
        NetworkReport report = new NetworkReport();
        List<String> failures = new ArrayList<>();
        err.println("NetworkSuite: distribution " + distribution + "; warm-up " + options.warmup() + ", measured "
                + options.duration() + " per shape; server JVM options: " + options.jvmOptions());
        List<Integer> rates = options.lightRates();
        List<BenchServers.Running> running = new ArrayList<>();
        try {
            for (ServerKind kind : options.servers()) {
                err.println("NetworkSuite: starting " + kind.label());
                try {
                    running.add(servers.start(kind));
                } catch (IOException e) {
                    failures.add(kind.label() + " did not start: " + e.getMessage());
                    err.println("NetworkSuite: " + kind.label() + " did not start: " + e.getMessage());
                }
            }
            // Shape by shape, the servers one after the other: a change in the machine's load
            // between shapes touches every server of a shape alike. Who goes first rotates.
            List<Shape> shapes = options.shapes();
            for (int round = 0; round < options.rounds(); round++) {
                for (int s = 0; s < shapes.size(); s++) {
                    for (int i = 0; i < running.size(); i++) {
                        measure(load, running.get((round + s + i) % running.size()), shapes.get(s), report, failures,
                                err);
                    }
                }
            }
            // Light load: what each server's CPU costs per request when it is mostly idle.
            for (int r = 0; r < rates.size(); r++) {
                for (int i = 0; i < running.size(); i++) {
                    measureLight(load, running.get((r + i) % running.size()), rates.get(r), options, report, failures,
                            err);
                }
            }
            for (BenchServers.Running server : running) {
                int status = server.stop();
                // 143: a JVM ended by SIGTERM after running its shutdown hooks.
                if (status != 0 && status != 143) {
                    err.println("NetworkSuite: " + server.kind().label() + " exited with " + status + " after SIGTERM");
                }
            }
        } finally {
            for (BenchServers.Running server : running) {
                server.close();
            }
        }
        report.print(out);
        out.println();
        out.println("Servers: each in its own JVM (" + options.jvmOptions() + "), on loopback; Troupe "
                + "distribution defaults (workers and IO loops = cores); Netty " + "epoll, event loops = cores; "
                + "Pekko default dispatcher fork-join, parallelism = cores, throughput 5. Load: troupe-client bench, "
                + "warm-up " + options.warmup() + " (" + LARGE_FRAME_WARMUP_FACTOR + " times that for payloads of "
                + LARGE_FRAME_BYTES / 1024 + " KiB and more), measured " + options.duration() + (options.rounds() > 1
                        ? "; each row is the median-throughput run of " + options.rounds() + " rounds" : "") + "."
                + (rates.isEmpty() ? "" : " Light load (after the shapes, so every server's JIT is warm): troupe-client"
                        + " bench --rate R on 1 connection (at most 16 in flight, 64 B); the server's CPU time (user +"
                        + " system, /proc) over the measured window, divided by the requests due in it."));
        out.flush();
        if (report.totalErrors() > 0) {
            failures.add(report.totalErrors() + " requests failed");
        }
        if (!failures.isEmpty()) {
            err.println("NetworkSuite: errors:\n  " + String.join("\n  ", failures));
            return 1;
        }
        return 0;
    }
}
