package io.troupe.benchmarks.net;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import javax.net.ssl.SSLContext;

import org.HdrHistogram.Histogram;

/**
 * What TLS costs (issue 14): protocol v1 {@code echo} of 64 B at 1 connection × 1 request in flight
 * and 64 × 16, through Troupe and through a plain Netty server, each in plaintext and in TLS 1.3 —
 * Troupe's reactor with the JDK's {@code SSLEngine}, Netty with its {@code SslHandler} on the same
 * JDK provider — all driven by the same client ({@link BlockingPipeline}: the JDK's {@code SSLSocket},
 * a thread per connection). Every server runs in its own JVM with the same options, one after the
 * other, with the same warm-up and measured window.
 *
 * <pre>
 * java -cp benchmarks.jar io.troupe.benchmarks.net.TlsSuite [--quick] [--distribution DIR]
 *      [--warmup 10s] [--duration 10s] [--jvm-opts "-Xms1g -Xmx1g -XX:+AlwaysPreTouch"]
 * </pre>
 *
 * <p>Markdown on standard output, progress on standard error; exit status 0 when every cell was
 * measured, 1 otherwise, 64 for a bad command line.
 *
 * <p><b>Threading:</b> the main thread; the load's connections each on a thread of their own.
 */
public final class TlsSuite {

    private static final String TENANT = "demo";
    private static final int PAYLOAD = 64;
    private static final List<Shape> SHAPES = List.of(new Shape(1, 1, PAYLOAD), new Shape(64, 16, PAYLOAD));
    private static final ServerKind[] KINDS = {ServerKind.TROUPE, ServerKind.PLAIN_NETTY};

    private TlsSuite() {
    }

    public static void main(String[] args) throws Exception {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        Map<String, String> options = new LinkedHashMap<>(Map.of("warmup", "10s", "duration", "10s",
                "jvm-opts", NetworkSuite.DEFAULT_JVM_OPTS));
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--quick")) {
                options.put("warmup", "2s");
                options.put("duration", "3s");
            } else if (args[i].startsWith("--") && i + 1 < args.length
                    && List.of("--warmup", "--duration", "--jvm-opts", "--distribution").contains(args[i])) {
                options.put(args[i].substring(2), args[++i]);
            } else {
                err.println("TlsSuite: unknown or incomplete option '" + args[i] + "'; usage: [--quick] "
                        + "[--distribution DIR] [--warmup 10s] [--duration 10s] [--jvm-opts \"...\"]");
                return 64;
            }
        }
        Duration warmup;
        Duration duration;
        try {
            warmup = seconds(options.get("warmup"));
            duration = seconds(options.get("duration"));
        } catch (IllegalArgumentException e) {
            err.println("TlsSuite: " + e.getMessage());
            return 64;
        }
        Path distribution = DistributionLocator.locate(options.get("distribution"));
        String token = HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
        Path keysDir = Files.createTempDirectory("troupe-tls-bench-");
        ServerKeys keys = ServerKeys.create(keysDir);
        SSLContext client = keys.clientContext();

        Map<String, Cell> cells = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        for (ServerKind kind : KINDS) {
            for (boolean tls : new boolean[] {false, true}) {
                BenchServers servers = new BenchServers(distribution, TENANT, token, options.get("jvm-opts"),
                        tls ? keys : null);
                err.println("TlsSuite: " + kind.label() + (tls ? " with TLS" : " in plaintext") + ": starting");
                try (BenchServers.Running server = servers.start(kind)) {
                    for (Shape shape : SHAPES) {
                        Cell cell = measure(server.port(), tls ? client : null, token, shape, warmup, duration);
                        err.printf(Locale.ROOT, "TlsSuite:   %s: %,.0f req/s%s%s%n", shape.label(), cell.rate(),
                                shape.connections() == 1 ? String.format(Locale.ROOT, ", p50 %.1f µs, p99 %.1f µs",
                                        cell.p50Micros(), cell.p99Micros()) : "",
                                cell.failure() == null ? "" : ", failed: " + cell.failure());
                        if (cell.failure() != null) {
                            problems.add(kind.label() + (tls ? " TLS " : " plaintext ") + shape.label() + ": "
                                    + cell.failure());
                        }
                        cells.put(key(kind, tls, shape), cell);
                    }
                    server.stop();
                } catch (IOException e) {
                    problems.add(kind.label() + (tls ? " TLS" : " plaintext") + ": " + e.getMessage());
                    err.println("TlsSuite: " + e.getMessage());
                }
            }
        }
        report(out, cells, warmup, duration, options.get("jvm-opts"));
        if (!problems.isEmpty()) {
            err.println("TlsSuite: errors:\n  " + String.join("\n  ", problems));
            return 1;
        }
        return 0;
    }

    private static Cell measure(int port, SSLContext tls, String token, Shape shape, Duration warmup,
            Duration duration) throws InterruptedException {
        long from = System.nanoTime() + warmup.toNanos();
        long until = from + duration.toNanos();
        List<BlockingPipeline> pipelines = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < shape.connections(); i++) {
            BlockingPipeline pipeline = new BlockingPipeline(port, tls, TENANT, token, shape.pipeline(),
                    shape.size(), from, until);
            Thread thread = new Thread(pipeline, "tls-load-" + i);
            thread.setDaemon(true);
            pipelines.add(pipeline);
            threads.add(thread);
            thread.start();
        }
        long left;
        while ((left = until - System.nanoTime()) > 0) {
            Thread.sleep(Math.max(1, left / 1_000_000)); // the load runs for a fixed time: nothing to wait on
        }
        pipelines.forEach(BlockingPipeline::stop);
        for (Thread thread : threads) {
            thread.join(10_000);
        }
        long replies = 0;
        Histogram latency = new Histogram(60_000_000_000L, 3);
        String failure = null;
        for (BlockingPipeline pipeline : pipelines) {
            replies += pipeline.replies();
            latency.add(pipeline.latency());
            if (pipeline.failure() != null && failure == null) {
                failure = pipeline.failure().toString();
            }
        }
        double seconds = duration.toNanos() / 1e9;
        return new Cell(replies / seconds, latency.getTotalCount() == 0 ? Double.NaN
                : latency.getValueAtPercentile(50) / 1e3, latency.getTotalCount() == 0 ? Double.NaN
                : latency.getValueAtPercentile(99) / 1e3, failure);
    }

    private static void report(PrintStream out, Map<String, Cell> cells, Duration warmup, Duration duration,
            String jvmOptions) {
        out.println("| shape | Troupe plaintext | Troupe TLS | TLS / plaintext | plain Netty plaintext "
                + "| plain Netty TLS (SslHandler, JDK) | TLS / plaintext | Troupe TLS / Netty TLS |");
        out.println("|---|---:|---:|---:|---:|---:|---:|---:|");
        for (Shape shape : SHAPES) {
            Cell troupePlain = cells.get(key(ServerKind.TROUPE, false, shape));
            Cell troupeTls = cells.get(key(ServerKind.TROUPE, true, shape));
            Cell nettyPlain = cells.get(key(ServerKind.PLAIN_NETTY, false, shape));
            Cell nettyTls = cells.get(key(ServerKind.PLAIN_NETTY, true, shape));
            out.printf(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s |%n", shape.label(), rate(troupePlain),
                    rate(troupeTls), ratio(troupeTls, troupePlain), rate(nettyPlain), rate(nettyTls),
                    ratio(nettyTls, nettyPlain), ratio(troupeTls, nettyTls));
        }
        out.println();
        out.println("Round trips at 1 × 1 (p50 / p99, µs):");
        out.println();
        out.println("| server | plaintext | TLS |");
        out.println("|---|---:|---:|");
        Shape single = SHAPES.get(0);
        for (ServerKind kind : KINDS) {
            out.printf(Locale.ROOT, "| %s | %s | %s |%n", kind.label(), latency(cells.get(key(kind, false, single))),
                    latency(cells.get(key(kind, true, single))));
        }
        out.println();
        out.println("Requests/s counted over " + duration.toMillis() / 1000.0 + " s after " + warmup.toMillis() / 1000.0
                + " s of warm-up, per server and shape; each server in its own JVM (`" + jvmOptions + "`), "
                + "one after the other, on loopback. TLS 1.3 with an EC P-256 self-signed certificate, the JDK's "
                + "provider on both sides; the client is the JDK's SSLSocket (host name verified), one thread per "
                + "connection, one flush per request. Troupe: the distribution with `tls.keystore` set; plain "
                + "Netty: the network suite's hand-written protocol v1 server, with an SslHandler first in its "
                + "pipeline.");
    }

    private static String key(ServerKind kind, boolean tls, Shape shape) {
        return kind + "/" + tls + "/" + shape.label();
    }

    private static String rate(Cell cell) {
        return cell == null || cell.failure() != null ? "—" : String.format(Locale.ROOT, "%,.0f", cell.rate());
    }

    private static String ratio(Cell a, Cell b) {
        if (a == null || b == null || a.failure() != null || b.failure() != null || b.rate() == 0) {
            return "—";
        }
        return String.format(Locale.ROOT, "%.2f×", a.rate() / b.rate());
    }

    private static String latency(Cell cell) {
        return cell == null || cell.failure() != null ? "—"
                : String.format(Locale.ROOT, "%.1f / %.1f", cell.p50Micros(), cell.p99Micros());
    }

    /** "10s" or "300ms". */
    private static Duration seconds(String text) {
        if (text.endsWith("ms")) {
            return Duration.ofMillis(Long.parseLong(text.substring(0, text.length() - 2)));
        }
        if (text.endsWith("s")) {
            return Duration.ofSeconds(Long.parseLong(text.substring(0, text.length() - 1)));
        }
        throw new IllegalArgumentException("a duration like 10s or 300ms, not '" + text + "'");
    }

    /** One server × TLS × shape. */
    private record Cell(double rate, double p50Micros, double p99Micros, String failure) {
    }
}
