package io.troupe.benchmarks.features;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.troupe.benchmarks.net.BenchResult;
import io.troupe.benchmarks.net.BenchServers;
import io.troupe.benchmarks.net.DistributionLocator;
import io.troupe.benchmarks.net.LoadGenerator;
import io.troupe.benchmarks.net.Shape;
import io.troupe.benchmarks.net.TroupeInstance;
import io.troupe.benchmarks.tenants.Readiness;

/**
 * What the features of round two cost on the request path (issue 20): echo through one Troupe server, the
 * same shape plain (one tenant), with its connections split between two tenants loaded at once (the fair run
 * queue's lanes, reserve worker and cap in force), and while {@code GET /metrics} is scraped every 100 ms.
 * TLS and durable state are measured by their own suites ({@code tls}, {@code durable}) against the same
 * server without them.
 *
 * <p>The suite starts a copy of the distribution ({@link TroupeInstance}: its own {@code bin/troupe}, two
 * tenants, a free port for the HTTP endpoint), waits until both tenants are served and {@code /metrics}
 * answers, then runs every shape with every feature through the network suite's load generator
 * ({@code troupe-client bench}, {@link LoadGenerator}; two of them at once for the two tenants), the features
 * of a shape one after the other, who goes first rotating from round to round. The markdown report
 * ({@link FeatureReport}) goes to standard output, progress to standard error.
 *
 * <pre>
 * java -cp benchmarks.jar io.troupe.benchmarks.features.FeatureCostSuite [--quick] [--distribution DIR]
 *      [--warmup 3s] [--duration 10s] [--shapes 64x16x64,64x1x4096] [--features two-tenants,metrics]
 *      [--scrape-every-ms 100] [--jvm-opts "-Xms1g -Xmx1g -XX:+AlwaysPreTouch"] [--rounds 3]
 * </pre>
 *
 * <p>Exit status 0 when every run completed without errors (the target met or not), 1 when the server did not
 * start or serve, a run failed or counted errors, or a scrape failed; 64 for a bad command line.
 *
 * <p><b>Threading:</b> runs on the main thread; a two-tenant run drives its second load from a pool thread, a
 * metrics run scrapes from a thread of its own.
 */
public final class FeatureCostSuite {

    static final String TENANT = "a";
    static final String SECOND_TENANT = "b";
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final Pattern HTTP_PORT = Pattern.compile("(?m)^port = ([0-9]+)$");

    private FeatureCostSuite() {
    }

    public static void main(String[] args) throws InterruptedException {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the suite; returns the exit status. */
    static int run(String[] args, PrintStream out, PrintStream err) throws InterruptedException {
        FeatureOptions options;
        try {
            options = FeatureOptions.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("FeatureCostSuite: " + e.getMessage());
            return 64;
        }
        Path distribution;
        try {
            distribution = DistributionLocator.locate(options.distribution());
        } catch (IllegalStateException e) {
            err.println("FeatureCostSuite: " + e.getMessage());
            return 1;
        }
        SecureRandom random = new SecureRandom();
        Map<String, String> tokens = new LinkedHashMap<>();
        tokens.put(TENANT, HexFormat.of().formatHex(random.generateSeed(16)));
        tokens.put(SECOND_TENANT, HexFormat.of().formatHex(random.generateSeed(16)));
        FeatureReport report = new FeatureReport();
        List<String> failures = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        err.println("FeatureCostSuite: distribution " + distribution + "; warm-up " + options.warmup()
                + ", measured " + options.duration() + " per run, " + options.rounds() + " round(s); server JVM "
                + "options: " + options.jvmOptions());
        ExecutorService second = Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, "second-tenant-load");
            thread.setDaemon(true);
            return thread;
        });
        try {
            int port = BenchServers.freePort();
            List<TroupeInstance.Tenant> tenants = new ArrayList<>();
            tokens.forEach((id, token) -> tenants.add(new TroupeInstance.Tenant(id, token, 100_000)));
            // admission sized for the shapes, as in the network suite: every connection comes from 127.0.0.1 at once
            TroupeInstance.Settings settings = new TroupeInstance.Settings(port, tenants,
                    Map.of("maxConnectionsPerAddress", "10000", "maxUnauthenticatedConnections", "10000"), List.of(),
                    0, options.jvmOptions(), 100_000);
            err.println("FeatureCostSuite: starting Troupe");
            try (TroupeInstance troupe = TroupeInstance.start(distribution, settings)) {
                try {
                    for (Map.Entry<String, String> tenant : tokens.entrySet()) {
                        Readiness.await(port, tenant.getKey(), tenant.getValue(), "echo",
                                "ready".getBytes(StandardCharsets.US_ASCII), READY_TIMEOUT);
                    }
                    Endpoint endpoint = endpoint(troupe.home());
                    new MetricsScraper(endpoint.httpPort(), endpoint.adminToken(), options.scrapeEvery()).check();
                    Loads loads = new Loads(distribution, port, tokens, options, second, endpoint.httpPort(),
                            endpoint.adminToken());
                    measureAll(options, loads, report, failures, notes, err);
                } catch (IOException e) {
                    failures.add(e.getMessage());
                    err.println("FeatureCostSuite: " + e.getMessage());
                }
                int status = troupe.stop();
                // 143: a JVM ended by SIGTERM after running its shutdown hooks.
                if (status != 0 && status != 143) {
                    err.println("FeatureCostSuite: Troupe exited with " + status + " after SIGTERM");
                }
            }
        } catch (IOException e) {
            failures.add(e.getMessage());
            err.println("FeatureCostSuite: " + e.getMessage());
        } finally {
            second.shutdownNow();
        }
        report.print(out);
        out.println();
        out.println("Server: a copy of the distribution (`bin/troupe`, JVM `" + options.jvmOptions() + "`, defaults: "
                + "workers and IO loops = cores) with two tenants, `" + TENANT + "` and `" + SECOND_TENANT + "` (weight 1 "
                + "each). Load: `troupe-client bench`, `echo`, random payloads, warm-up " + options.warmup()
                + ", measured " + options.duration() + (options.rounds() > 1 ? "; each row is the median-throughput "
                        + "run of " + options.rounds() + " rounds, errors over all" : "") + "; the features of a shape "
                + "run one after the other, who goes first rotating. Plain: every connection of the shape for tenant `"
                + TENANT + "`. Two tenants loaded: the shape's connections split in half between `" + TENANT + "` and `"
                + SECOND_TENANT + "`, two clients started together; req/s is their sum, p50 and p99 the worse of the "
                + "two. /metrics scraped: plain, while another thread fetches `GET /metrics` (Prometheus text, admin "
                + "token) every " + options.scrapeEvery().toMillis() + " ms, 150 times as often as Prometheus' default "
                + "of 15 s. " + String.join(" ", notes));
        out.flush();
        if (report.totalErrors() > 0) {
            failures.add(report.totalErrors() + " requests failed");
        }
        if (!failures.isEmpty()) {
            err.println("FeatureCostSuite: errors:\n  " + String.join("\n  ", failures));
            return 1;
        }
        return 0;
    }

    /** The load of one run: the tenants, their tokens and the server's ports. */
    private record Loads(Path distribution, int port, Map<String, String> tokens, FeatureOptions options,
            ExecutorService second, int httpPort, String adminToken) {

        LoadGenerator generator(String tenant) {
            return new LoadGenerator(distribution, tenant, tokens.get(tenant), options.warmup(), options.duration(),
                    "echo");
        }
    }

    private static void measureAll(FeatureOptions options, Loads loads, FeatureReport report, List<String> failures,
            List<String> notes, PrintStream err) throws InterruptedException {
        List<Shape> shapes = options.shapes();
        List<Feature> features = options.features();
        long scrapes = 0;
        long scrapeBytes = 0;
        for (int round = 0; round < options.rounds(); round++) {
            for (int s = 0; s < shapes.size(); s++) {
                for (int i = 0; i < features.size(); i++) {
                    Feature feature = features.get((round + s + i) % features.size());
                    Shape shape = shapes.get(s);
                    String what = shape.label() + ", " + feature.label();
                    err.println("FeatureCostSuite: " + what);
                    try {
                        BenchResult result;
                        if (feature == Feature.METRICS) {
                            MetricsScraper scraper = new MetricsScraper(loads.httpPort(), loads.adminToken(),
                                    options.scrapeEvery());
                            try (scraper) {
                                scraper.start();
                                result = loads.generator(TENANT).run(loads.port(), shape);
                            }
                            if (scraper.failures() > 0) {
                                failures.add(what + ": " + scraper.failures() + " scrapes failed, the last with "
                                        + scraper.lastFailure());
                            }
                            scrapes += scraper.scrapes();
                            scrapeBytes = Math.max(scrapeBytes, scraper.averageBytes());
                        } else if (feature == Feature.TWO_TENANTS) {
                            result = twoTenants(loads, shape);
                        } else {
                            result = loads.generator(TENANT).run(loads.port(), shape);
                        }
                        report.add(shape, feature, result);
                        err.printf(Locale.ROOT, "FeatureCostSuite:   %,.0f req/s, p50 %s, p99 %s, errors %d%n",
                                result.requestsPerSecond(), BenchResult.millis(result.p50Nanos()),
                                BenchResult.millis(result.p99Nanos()), result.errors());
                    } catch (IOException | ExecutionException e) {
                        failures.add(what + ": " + e.getMessage());
                        err.println("FeatureCostSuite: " + what + " failed: " + e.getMessage());
                    }
                }
            }
        }
        if (scrapes > 0) {
            notes.add(String.format(Locale.ROOT, "%,d scrapes in all, about %,d bytes each.", scrapes, scrapeBytes));
        }
    }

    /** Half the connections for each tenant, both clients at once; their sum, and the worse latencies. */
    private static BenchResult twoTenants(Loads loads, Shape shape)
            throws IOException, InterruptedException, ExecutionException {
        Shape first = new Shape(shape.connections() - shape.connections() / 2, shape.pipeline(), shape.size());
        Shape other = new Shape(shape.connections() / 2, shape.pipeline(), shape.size());
        Future<BenchResult> b = loads.second().submit(() -> loads.generator(SECOND_TENANT).run(loads.port(), other));
        BenchResult a;
        try {
            a = loads.generator(TENANT).run(loads.port(), first);
        } catch (IOException | RuntimeException e) {
            b.cancel(true);
            throw e;
        }
        return combined(a, b.get());
    }

    static BenchResult combined(BenchResult a, BenchResult b) {
        return new BenchResult(a.requestsPerSecond() + b.requestsPerSecond(), Math.max(a.p50Nanos(), b.p50Nanos()),
                Math.max(a.p99Nanos(), b.p99Nanos()), Math.max(a.p999Nanos(), b.p999Nanos()), a.errors() + b.errors());
    }

    /** The copy's HTTP endpoint: its port and its admin token. */
    private record Endpoint(int httpPort, String adminToken) {
    }

    /** The copy's HTTP endpoint: its port from {@code etc/io.troupe.http.cfg}, the token of {@code etc/admin.token}. */
    private static Endpoint endpoint(Path home) throws IOException {
        String config = Files.readString(home.resolve("etc/io.troupe.http.cfg"), StandardCharsets.UTF_8);
        Matcher port = HTTP_PORT.matcher(config);
        if (!port.find()) {
            throw new IOException(home.resolve("etc/io.troupe.http.cfg") + " has no line 'port = N'");
        }
        String token = Files.readAllLines(home.resolve("etc/admin.token"), StandardCharsets.UTF_8).get(0).trim();
        return new Endpoint(Integer.parseInt(port.group(1)), token);
    }
}
