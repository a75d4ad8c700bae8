package io.troupe.benchmarks.durable;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

import io.troupe.benchmarks.net.BenchResult;
import io.troupe.benchmarks.net.DistributionLocator;
import io.troupe.benchmarks.net.LoadGenerator;
import io.troupe.benchmarks.net.Shape;
import io.troupe.benchmarks.net.TroupeInstance;
import io.troupe.benchmarks.tenants.Readiness;

/**
 * What durable actor state costs per request (issue 16): a {@code counter.add}-like request (add 1,
 * reply with the total) against one real installation, with durability off, every turn and every
 * 10 ms, on each shape (by default 1 connection × 1 in flight and 64 × 16, 64 B).
 *
 * <p>The suite starts a copy of the distribution ({@link TroupeInstance}: its own {@code bin/troupe},
 * the distribution's state store under the copy's {@code data/}, one tenant) with the benchmark plugin
 * in {@code deploy/} ({@link BenchPluginJar}: one handler per {@link DurabilityMode}), waits until each
 * handler answers, then drives every shape in every mode with the network suite's load generator (the
 * distribution's {@code troupe-client bench}, {@link LoadGenerator}), the modes of a shape one after the
 * other (who goes first rotating), so that the modes compared see the same machine. Around each run it
 * reads the store's counters from the shell ({@link StoreProbe}). The markdown report
 * ({@link DurabilityReport}) goes to standard output, progress to standard error.
 *
 * <pre>
 * java -cp benchmarks.jar io.troupe.benchmarks.durable.DurabilitySuite [--quick] [--distribution DIR]
 *      [--warmup 3s] [--duration 10s] [--shapes 1x1x64,64x16x64] [--modes off,turn,10ms]
 *      [--jvm-opts "-Xms1g -Xmx1g -XX:+AlwaysPreTouch"] [--rounds 3]
 * </pre>
 *
 * <p>Exit status 0 when every run completed without errors (the target met or not), 1 when the server
 * did not start or serve, a run failed or counted errors, 64 for a bad command line.
 *
 * <p><b>Threading:</b> runs on the main thread.
 */
public final class DurabilitySuite {

    static final String TENANT = "durable";
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final int LOG_LINES = 30;

    private DurabilitySuite() {
    }

    public static void main(String[] args) throws InterruptedException {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the suite; returns the exit status. */
    static int run(String[] args, PrintStream out, PrintStream err) throws InterruptedException {
        DurabilityOptions options;
        try {
            options = DurabilityOptions.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("DurabilitySuite: " + e.getMessage());
            return 64;
        }
        Path distribution;
        try {
            distribution = DistributionLocator.locate(options.distribution());
        } catch (IllegalStateException e) {
            err.println("DurabilitySuite: " + e.getMessage());
            return 1;
        }
        String token = HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
        DurabilityReport report = new DurabilityReport();
        List<String> failures = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        err.println("DurabilitySuite: distribution " + distribution + "; warm-up " + options.warmup()
                + ", measured " + options.duration() + " per run, " + options.rounds() + " round(s); server JVM "
                + "options: " + options.jvmOptions());
        Path work = null;
        try {
            work = Files.createTempDirectory("troupe-durable-");
            Path plugin = BenchPluginJar.write(work.resolve("bench-durable.jar"));
            int port = freePort();
            TroupeInstance.Settings settings = new TroupeInstance.Settings(port,
                    List.of(new TroupeInstance.Tenant(TENANT, token, 100_000)), Map.of(), List.of(plugin), 0,
                    options.jvmOptions(), 100_000);
            err.println("DurabilitySuite: starting Troupe");
            try (TroupeInstance troupe = TroupeInstance.start(distribution, settings)) {
                notes.add("The store file is on " + Files.getFileStore(troupe.home()).type() + " (the temporary copy)");
                try {
                    for (DurabilityMode mode : options.modes()) {
                        Readiness.await(port, TENANT, token, mode.handlerName(),
                                "1".getBytes(StandardCharsets.US_ASCII), READY_TIMEOUT);
                    }
                    measureAll(options, distribution, token, port, new StoreProbe(troupe.process()), report,
                            failures, notes, err);
                } catch (IOException e) {
                    failures.add(e.getMessage());
                    err.println("DurabilitySuite: " + e.getMessage());
                }
                int status = troupe.stop();
                // 143: a JVM ended by SIGTERM after running its shutdown hooks.
                if (status != 0 && status != 143) {
                    err.println("DurabilitySuite: Troupe exited with " + status + " after SIGTERM");
                }
                if (!failures.isEmpty()) {
                    printProblems(troupe.logFile(), err);
                }
            }
        } catch (IOException e) {
            failures.add(e.getMessage());
            err.println("DurabilitySuite: " + e.getMessage());
        } finally {
            if (work != null) {
                delete(work);
            }
        }
        report.print(out);
        out.println();
        out.println("Server: a copy of the distribution (`bin/troupe`, JVM `" + options.jvmOptions() + "`, "
                + "defaults: workers and IO loops = cores, the embedded H2 MVStore store under `data/` with "
                + "`syncWrites = true`) and the benchmark plugin: per mode one counter actor for the tenant that "
                + "adds 1 per request and replies with the total. Load: `troupe-client bench`, random 64 B "
                + "payloads, warm-up " + options.warmup() + ", measured " + options.duration()
                + (options.rounds() > 1 ? "; each row is the median-throughput run of " + options.rounds()
                        + " rounds, errors over all" : "") + "; the modes of a shape run one after the other, who "
                + "goes first rotating. Store columns: from `troupe:stats` read before and after the run (warm-up "
                + "and the client's start included), syncs/s and snapshots written per sync (group commit); the "
                + "store's write p99 is its own, write to durable, over its recent writes. "
                + String.join(". ", notes) + ".");
        out.flush();
        if (report.totalErrors() > 0) {
            failures.add(report.totalErrors() + " requests failed");
        }
        if (!failures.isEmpty()) {
            err.println("DurabilitySuite: errors:\n  " + String.join("\n  ", failures));
            return 1;
        }
        return 0;
    }

    private static void measureAll(DurabilityOptions options, Path distribution, String token, int port,
            StoreProbe store, DurabilityReport report, List<String> failures, List<String> notes, PrintStream err)
            throws InterruptedException {
        List<Shape> shapes = options.shapes();
        List<DurabilityMode> modes = options.modes();
        for (int round = 0; round < options.rounds(); round++) {
            for (int s = 0; s < shapes.size(); s++) {
                for (int i = 0; i < modes.size(); i++) {
                    DurabilityMode mode = modes.get((round + s + i) % modes.size());
                    LoadGenerator load = new LoadGenerator(distribution, TENANT, token, options.warmup(),
                            options.duration(), mode.handlerName());
                    measure(load, port, shapes.get(s), mode, store, report, failures, err);
                }
            }
        }
        if (store.unavailable() != null) {
            notes.add("The store's counters could not be read: " + store.unavailable());
        }
    }

    private static void measure(LoadGenerator load, int port, Shape shape, DurabilityMode mode, StoreProbe store,
            DurabilityReport report, List<String> failures, PrintStream err) throws InterruptedException {
        String what = shape.label() + ", durability " + mode.label();
        err.println("DurabilitySuite: " + what);
        StoreCounters before = store.read();
        BenchResult result;
        try {
            result = load.run(port, shape);
        } catch (IOException e) {
            failures.add(what + ": " + e.getMessage());
            err.println("DurabilitySuite: " + what + " failed: " + e.getMessage());
            return;
        }
        StoreCounters after = before == null ? null : store.read();
        StoreActivity activity = after == null ? null : after.since(before);
        boolean stored = activity == null || activity.writes() > 0;
        if (mode != DurabilityMode.OFF && !stored && result.requestsPerSecond() > 0) {
            failures.add(what + ": the store counted no writes during the run, so the runtime did not store the "
                    + "durable counter and the numbers are those of durability off");
        }
        report.add(shape, mode, new DurabilityReport.Run(result, activity));
        err.printf(Locale.ROOT, "DurabilitySuite:   %,.0f req/s, p50 %s, p99 %s, errors %d%s%n",
                result.requestsPerSecond(), BenchResult.millis(result.p50Nanos()),
                BenchResult.millis(result.p99Nanos()), result.errors(), activity == null ? ""
                        : "; store " + activity.syncsPerSecond() + " syncs/s, " + activity.writesPerSync()
                                + " writes/sync");
    }

    /** Prints the last {@value #LOG_LINES} WARN and ERROR lines of the server's log, to explain a failure. */
    private static void printProblems(Path log, PrintStream err) {
        try (Stream<String> lines = Files.lines(log, StandardCharsets.UTF_8)) {
            List<String> problems = lines.filter(line -> line.contains(" WARN ") || line.contains(" ERROR "))
                    .toList();
            err.println("DurabilitySuite: the server's WARN and ERROR lines (" + log + "):");
            problems.subList(Math.max(0, problems.size() - LOG_LINES), problems.size())
                    .forEach(line -> err.println("  " + line));
        } catch (IOException | UncheckedIOException e) {
            err.println("DurabilitySuite: cannot read the server's log " + log + ": " + e.getMessage());
        }
    }

    /** A loopback port nothing listens on now (the server binds it a moment later). */
    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
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
