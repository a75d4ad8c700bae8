package io.troupe.benchmarks.net;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The results of the network suite as markdown: one row per shape and server (with several rounds,
 * the run of median throughput, what the server used per request in it, and the errors of all), then
 * the ratios and the targets,
 * each computed from results of the same invocation.
 *
 * <p><b>Threading:</b> one suite thread.
 */
final class NetworkReport {

    /** One line of the targets table. */
    record Check(String target, String value, String met) {
    }

    /**
     * One light-load run: a server answering {@code rate} requests/s and the CPU time it used meanwhile.
     *
     * @param cpuNanos the server's CPU time in the measured window ({@link UsageWindow})
     * @param seconds  the measured window
     */
    record LightRun(int rate, ServerKind server, BenchResult result, long cpuNanos, double seconds) {

        /** The server's CPU time per request: the window's over the requests due in it. */
        double cpuMicrosPerRequest() {
            return cpuNanos / 1e3 / (rate * seconds);
        }

        /** The server's CPU use over the window, in % of one core. */
        double cpuPercent() {
            return cpuNanos / 1e7 / seconds;
        }
    }

    /**
     * What a server used in the measured window of one closed-loop run ({@link UsageWindow}).
     *
     * @param cpuNanos       the server's CPU time in the window
     * @param allocatedBytes the bytes its threads allocated in it, -1 when they could not be read
     * @param seconds        the window
     */
    record Usage(long cpuNanos, long allocatedBytes, double seconds) {

        /** The server's CPU time per request: the window's over the requests answered in it. */
        double cpuMicrosPerRequest(BenchResult result) {
            return cpuNanos / 1e3 / (result.requestsPerSecond() * seconds);
        }

        /** Bytes allocated per request answered in the window, -1 when unknown. */
        double allocatedPerRequest(BenchResult result) {
            return allocatedBytes < 0 ? -1 : allocatedBytes / (result.requestsPerSecond() * seconds);
        }
    }

    /** CPU per request at light load: Troupe's may be at most this many times plain Netty's. */
    static final double LIGHT_CPU_TARGET = 1.2;

    private final Map<Shape, Map<ServerKind, List<BenchResult>>> results = new LinkedHashMap<>();
    private final List<LightRun> lightRuns = new ArrayList<>();
    private final Map<BenchResult, Usage> usages = new IdentityHashMap<>();

    /** Records one run and what the server used in it; a shape and server run in several rounds has several. */
    void add(Shape shape, ServerKind server, BenchResult result, Usage usage) {
        results.computeIfAbsent(shape, s -> new EnumMap<>(ServerKind.class))
                .computeIfAbsent(server, k -> new ArrayList<>()).add(result);
        usages.put(result, usage);
    }

    /** The run with the median throughput (the lower middle one of an even count), or null. */
    BenchResult result(Shape shape, ServerKind server) {
        Map<ServerKind, List<BenchResult>> byServer = results.get(shape);
        List<BenchResult> runs = byServer == null ? null : byServer.get(server);
        if (runs == null || runs.isEmpty()) {
            return null;
        }
        List<BenchResult> sorted = new ArrayList<>(runs);
        sorted.sort(Comparator.comparingDouble(BenchResult::requestsPerSecond));
        return sorted.get((sorted.size() - 1) / 2);
    }

    /** Records one light-load run. */
    void addLight(LightRun run) {
        lightRuns.add(run);
    }

    /** Errors over every run. */
    long totalErrors() {
        return results.values().stream().flatMap(m -> m.values().stream()).flatMap(List::stream)
                .mapToLong(BenchResult::errors).sum()
                + lightRuns.stream().mapToLong(run -> run.result().errors()).sum();
    }

    void print(PrintStream out) {
        out.println("| shape | server | req/s | p50 | p99 | p99.9 | errors | server CPU per request "
                + "| allocated per request |");
        out.println("|---|---|---:|---:|---:|---:|---:|---:|---:|");
        results.forEach((shape, byServer) -> byServer.keySet().forEach(server -> {
            BenchResult r = result(shape, server);
            long errors = byServer.get(server).stream().mapToLong(BenchResult::errors).sum();
            Usage usage = usages.get(r);
            out.printf(Locale.ROOT, "| %s | %s | %,.0f | %s | %s | %s | %d | %.1f µs | %s |%n", shape.label(),
                    server.label(), r.requestsPerSecond(), BenchResult.millis(r.p50Nanos()),
                    BenchResult.millis(r.p99Nanos()), BenchResult.millis(r.p999Nanos()), errors,
                    usage.cpuMicrosPerRequest(r), bytes(usage.allocatedPerRequest(r)));
        }));
        if (!lightRuns.isEmpty()) {
            out.println();
            out.println("| light load | server | req/s | p50 | p99 | server CPU | CPU per request |");
            out.println("|---|---|---:|---:|---:|---:|---:|");
            for (LightRun run : lightRuns) {
                out.printf(Locale.ROOT, "| %,d req/s, 1 connection | %s | %,.0f | %s | %s | %.1f %% | %.1f µs |%n",
                        run.rate(), run.server().label(), run.result().requestsPerSecond(),
                        BenchResult.millis(run.result().p50Nanos()), BenchResult.millis(run.result().p99Nanos()),
                        run.cpuPercent(), run.cpuMicrosPerRequest());
            }
        }
        out.println();
        out.println("| target | value | met |");
        out.println("|---|---|---|");
        for (Check check : checks()) {
            out.println("| " + check.target() + " | " + check.value() + " | " + check.met() + " |");
        }
        out.flush();
    }

    List<Check> checks() {
        List<Check> checks = new ArrayList<>();
        for (Shape shape : results.keySet()) {
            BenchResult troupe = result(shape, ServerKind.TROUPE);
            BenchResult pekko = result(shape, ServerKind.NETTY_PEKKO);
            BenchResult plain = result(shape, ServerKind.PLAIN_NETTY);
            if (troupe == null) {
                continue;
            }
            String label = shape.label();
            if (pekko != null) {
                double ratio = troupe.requestsPerSecond() / pekko.requestsPerSecond();
                checks.add(new Check(label + ": Troupe req/s ≥ 1.0× Netty+Pekko", times(ratio), met(ratio >= 1.0)));
                checks.add(new Check(label + ": Troupe p99 ≤ Netty+Pekko p99",
                        BenchResult.millis(troupe.p99Nanos()) + " vs " + BenchResult.millis(pekko.p99Nanos()),
                        met(troupe.p99Nanos() <= pekko.p99Nanos())));
            }
            if (plain != null) {
                double ratio = troupe.requestsPerSecond() / plain.requestsPerSecond();
                double minimum = shape.equals(Shape.PIPELINED) ? 0.8 : 1.0;
                checks.add(new Check(String.format(Locale.ROOT, "%s: Troupe req/s ≥ %.1f× plain Netty", label, minimum),
                        times(ratio), met(ratio >= minimum)));
                if (shape.size() >= 4096) {
                    double p99 = (double) troupe.p99Nanos() / plain.p99Nanos();
                    checks.add(new Check(label + ": Troupe p99 ≤ 1.2× plain Netty p99", times(p99) + " ("
                            + BenchResult.millis(troupe.p99Nanos()) + " vs " + BenchResult.millis(plain.p99Nanos())
                            + ")", met(p99 <= 1.2)));
                }
                if (shape.equals(Shape.SINGLE)) {
                    double p50 = (double) troupe.p50Nanos() / plain.p50Nanos();
                    checks.add(new Check(label + ": Troupe p50 ≤ 1.05× plain Netty p50", times(p50) + " ("
                            + BenchResult.millis(troupe.p50Nanos()) + " vs " + BenchResult.millis(plain.p50Nanos())
                            + ")", met(p50 <= 1.05)));
                }
            }
        }
        for (LightRun troupe : lightRuns) {
            if (troupe.server() != ServerKind.TROUPE) {
                continue;
            }
            lightRuns.stream()
                    .filter(run -> run.server() == ServerKind.PLAIN_NETTY && run.rate() == troupe.rate())
                    .findFirst()
                    .ifPresent(plain -> {
                        double ratio = troupe.cpuMicrosPerRequest() / plain.cpuMicrosPerRequest();
                        checks.add(new Check(String.format(Locale.ROOT, "%,d req/s: Troupe CPU per request ≤ %.1f× "
                                + "plain Netty", troupe.rate(), LIGHT_CPU_TARGET), times(ratio) + String.format(
                                Locale.ROOT, " (%.1f vs %.1f µs)", troupe.cpuMicrosPerRequest(),
                                plain.cpuMicrosPerRequest()), met(ratio <= LIGHT_CPU_TARGET)));
                    });
        }
        return checks;
    }

    /** Bytes as {@code 1,234 B}, {@code 12.3 KiB}; "—" for a negative (unknown) count. */
    static String bytes(double bytes) {
        if (bytes < 0) {
            return "—";
        }
        return bytes < 10_240 ? String.format(Locale.ROOT, "%,.0f B", bytes)
                : String.format(Locale.ROOT, "%,.1f KiB", bytes / 1024);
    }

    private static String times(double ratio) {
        return String.format(Locale.ROOT, "%.2f×", ratio);
    }

    private static String met(boolean met) {
        return met ? "yes" : "**no**";
    }
}
