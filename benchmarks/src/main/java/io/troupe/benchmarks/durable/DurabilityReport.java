package io.troupe.benchmarks.durable;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.troupe.benchmarks.net.BenchResult;
import io.troupe.benchmarks.net.Shape;

/**
 * The durability suite's results as markdown: one row per shape and mode (with several rounds, the run
 * of median throughput, with the store's activity during that run, and the errors of all runs), its
 * throughput relative to durability off in the same invocation, then issue 16's target: every 10 ms
 * costs at most 10 % of the throughput with durability off.
 *
 * <p><b>Threading:</b> one suite thread.
 */
final class DurabilityReport {

    /** Issue 16: every-10-ms keeps at least this share of the throughput with durability off. */
    static final double TARGET_RATIO = 0.90;

    /**
     * One run.
     *
     * @param result what troupe-client bench reported
     * @param store  what the store did meanwhile, or null when its counters could not be read
     */
    record Run(BenchResult result, StoreActivity store) {
    }

    private final Map<Shape, Map<DurabilityMode, List<Run>>> runs = new LinkedHashMap<>();

    void add(Shape shape, DurabilityMode mode, Run run) {
        runs.computeIfAbsent(shape, s -> new EnumMap<>(DurabilityMode.class))
                .computeIfAbsent(mode, m -> new ArrayList<>()).add(run);
    }

    /** The run with the median throughput (the lower middle one of an even count), or null. */
    Run median(Shape shape, DurabilityMode mode) {
        List<Run> all = runs.getOrDefault(shape, Map.of()).get(mode);
        if (all == null || all.isEmpty()) {
            return null;
        }
        List<Run> sorted = new ArrayList<>(all);
        sorted.sort(Comparator.comparingDouble(run -> run.result().requestsPerSecond()));
        return sorted.get((sorted.size() - 1) / 2);
    }

    /** Errors over every run. */
    long totalErrors() {
        return runs.values().stream().flatMap(m -> m.values().stream()).flatMap(List::stream)
                .mapToLong(run -> run.result().errors()).sum();
    }

    /**
     * Every-10-ms over off for {@code shape}, or NaN when either is missing.
     */
    double periodicRatio(Shape shape) {
        return ratio(shape, DurabilityMode.EVERY_10_MS);
    }

    void print(PrintStream out) {
        out.println("| shape | durability | req/s | p50 | p99 | vs off | errors | store syncs/s | writes/sync"
                + " | store write p99 |");
        out.println("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        runs.forEach((shape, byMode) -> byMode.keySet().forEach(mode -> {
            Run run = median(shape, mode);
            BenchResult r = run.result();
            long errors = byMode.get(mode).stream().mapToLong(each -> each.result().errors()).sum();
            StoreActivity store = run.store();
            out.printf(Locale.ROOT, "| %s | %s | %,.0f | %s | %s | %s | %d | %s | %s | %s |%n", shape.label(),
                    mode.label(), r.requestsPerSecond(), BenchResult.millis(r.p50Nanos()),
                    BenchResult.millis(r.p99Nanos()), times(ratio(shape, mode)), errors,
                    store == null ? "—" : store.syncsPerSecond(), store == null ? "—" : store.writesPerSync(),
                    store == null ? "—" : store.writeP99());
        }));
        out.println();
        out.println("| target (issue 16) | value | met |");
        out.println("|---|---|---|");
        for (Shape shape : runs.keySet()) {
            double ratio = periodicRatio(shape);
            if (!Double.isNaN(ratio)) {
                out.printf(Locale.ROOT, "| %s: every 10 ms ≥ %.2f× the req/s of off | %s | %s |%n", shape.label(),
                        TARGET_RATIO, times(ratio), ratio >= TARGET_RATIO ? "yes" : "**no**");
            }
        }
        out.flush();
    }

    private double ratio(Shape shape, DurabilityMode mode) {
        Run off = median(shape, DurabilityMode.OFF);
        Run run = median(shape, mode);
        if (off == null || run == null || off.result().requestsPerSecond() <= 0) {
            return Double.NaN;
        }
        return run.result().requestsPerSecond() / off.result().requestsPerSecond();
    }

    private static String times(double ratio) {
        return Double.isNaN(ratio) ? "—" : String.format(Locale.ROOT, "%.2f×", ratio);
    }
}
