package io.troupe.benchmarks.features;

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
 * The feature-cost suite's results as markdown: one row per shape and feature (with several rounds, the run of
 * median throughput, and the errors of all runs), its throughput relative to the plain server in the same
 * invocation, then issue 20's target: each feature within 10 % of the plain figure.
 *
 * <p><b>Threading:</b> one suite thread.
 */
final class FeatureReport {

    /** Issue 20: a feature keeps at least this share of the plain server's throughput, or is explained. */
    static final double TARGET_RATIO = 0.90;

    private final Map<Shape, Map<Feature, List<BenchResult>>> runs = new LinkedHashMap<>();

    void add(Shape shape, Feature feature, BenchResult result) {
        runs.computeIfAbsent(shape, s -> new EnumMap<>(Feature.class)).computeIfAbsent(feature, f -> new ArrayList<>())
                .add(result);
    }

    /** The run with the median throughput (the lower middle one of an even count), or null. */
    BenchResult median(Shape shape, Feature feature) {
        List<BenchResult> all = runs.getOrDefault(shape, Map.of()).get(feature);
        if (all == null || all.isEmpty()) {
            return null;
        }
        List<BenchResult> sorted = new ArrayList<>(all);
        sorted.sort(Comparator.comparingDouble(BenchResult::requestsPerSecond));
        return sorted.get((sorted.size() - 1) / 2);
    }

    /** {@code feature}'s median throughput over the plain server's for {@code shape}; NaN when either is missing. */
    double ratio(Shape shape, Feature feature) {
        BenchResult plain = median(shape, Feature.PLAIN);
        BenchResult run = median(shape, feature);
        if (plain == null || run == null || plain.requestsPerSecond() <= 0) {
            return Double.NaN;
        }
        return run.requestsPerSecond() / plain.requestsPerSecond();
    }

    long totalErrors() {
        return runs.values().stream().flatMap(m -> m.values().stream()).flatMap(List::stream)
                .mapToLong(BenchResult::errors).sum();
    }

    void print(PrintStream out) {
        out.println("| shape | server | req/s | p50 | p99 | vs plain | runs (req/s) | errors |");
        out.println("|---|---|---:|---:|---:|---:|---|---:|");
        runs.forEach((shape, byFeature) -> byFeature.forEach((feature, all) -> {
            BenchResult r = median(shape, feature);
            StringBuilder each = new StringBuilder();
            for (BenchResult run : all) {
                each.append(each.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%,.0f",
                        run.requestsPerSecond()));
            }
            out.printf(Locale.ROOT, "| %s | %s | %,.0f | %s | %s | %s | %s | %d |%n", shape.label(), feature.label(),
                    r.requestsPerSecond(), BenchResult.millis(r.p50Nanos()), BenchResult.millis(r.p99Nanos()),
                    times(ratio(shape, feature)), each, all.stream().mapToLong(BenchResult::errors).sum());
        }));
        out.println();
        out.println("| target (issue 20) | value | met |");
        out.println("|---|---|---|");
        runs.forEach((shape, byFeature) -> byFeature.keySet().stream().filter(f -> f != Feature.PLAIN)
                .forEach(feature -> {
                    double ratio = ratio(shape, feature);
                    if (!Double.isNaN(ratio)) {
                        out.printf(Locale.ROOT, "| %s, %s: ≥ %.2f× the req/s of plain | %s | %s |%n", shape.label(),
                                feature.label(), TARGET_RATIO, times(ratio), ratio >= TARGET_RATIO ? "yes" : "**no**");
                    }
                }));
        out.flush();
    }

    private static String times(double ratio) {
        return Double.isNaN(ratio) ? "—" : String.format(Locale.ROOT, "%.2f×", ratio);
    }
}
