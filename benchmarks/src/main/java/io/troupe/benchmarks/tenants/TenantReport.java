package io.troupe.benchmarks.tenants;

import java.io.PrintStream;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The suite's markdown: the table of the three scenarios (B's percentiles alone and beside A, the
 * p99 ratio, A's throughput alone and beside B, its ratio, and B beside a CPU hog with the ratio of
 * B's p99 beside A to it), the targets, every phase in detail, the settings, the machine and
 * the notes.
 *
 * <p><b>Threading:</b> one thread.
 */
final class TenantReport {

    /** B's p99 beside A may be at most this many times its p99 alone (issue 13). */
    static final double VICTIM_RATIO_TARGET = 2.0;
    /** A's throughput beside B must be at least this share of its throughput alone (issue 13). */
    static final double LOAD_RATIO_TARGET = 0.8;

    private final List<ScenarioResult> results;

    TenantReport(List<ScenarioResult> results) {
        this.results = List.copyOf(results);
    }

    void print(PrintStream out, List<String> settings) {
        out.println("| scenario | B p50/p99/p99.9 alone | B p50/p99/p99.9 beside A | B p99 ratio (beside/alone) "
                + "| A req/s alone | A req/s beside | A ratio | B p50/p99/p99.9 beside a CPU hog | B p99 beside A / "
                + "beside the hog |");
        out.println("|---|---|---|---:|---:|---:|---:|---|---:|");
        for (ScenarioResult result : results) {
            String name = result.scenario().title() + " (" + result.shape().label() + ")";
            if (!result.measured()) {
                out.println("| " + name + " | — | — | — | — | — | — | — | — |");
                continue;
            }
            out.printf(Locale.ROOT, "| %s | %s | %s | %.2f× | %,.0f | %,.0f | %.2f× | %s | %.2f× |%n", name,
                    percentiles(result.bAlone()), percentiles(result.bBeside()), result.victimRatio(),
                    result.aAlone().requestsPerSecond(), result.aBeside().requestsPerSecond(), result.loadRatio(),
                    percentiles(result.bBesideHog()), result.floorRatio());
        }
        out.println();
        out.println("The last two columns are context, not a target: B beside a CPU hog is B with the server to "
                + "itself while another process spins one thread per core, at the same priority. A noisy tenant "
                + "that keeps every core busy puts B's requests in the same place: they wait for the operating "
                + "system to give the server's threads a core. When the load generator shares the machine with "
                + "the server, B's p99 beside A cannot go below that floor whatever the server does.");
        out.println();
        out.println("Targets of issue 13, from the same run:");
        out.println();
        out.println("| scenario | B p99 beside A ≤ " + VICTIM_RATIO_TARGET + "× alone | A beside B ≥ "
                + LOAD_RATIO_TARGET + "× alone |");
        out.println("|---|---|---|");
        for (ScenarioResult result : results) {
            if (!result.measured()) {
                out.println("| " + result.scenario().title() + " | not measured | not measured |");
                continue;
            }
            out.printf(Locale.ROOT, "| %s | %s (%.2f×) | %s (%.2f×) |%n", result.scenario().title(),
                    met(result.victimRatio() <= VICTIM_RATIO_TARGET), result.victimRatio(),
                    met(result.loadRatio() >= LOAD_RATIO_TARGET), result.loadRatio());
        }
        out.println();
        out.println("Every phase (B: latency from send to reply, HdrHistogram; A: replies in the window):");
        out.println();
        out.println("| scenario | phase | B requests | B p50 | B p90 | B p99 | B p99.9 | B max | B errors | A req/s "
                + "| A MiB/s | A errors | A connections lost |");
        out.println("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|");
        for (ScenarioResult result : results) {
            String name = result.scenario().title();
            if (!result.measured()) {
                out.println("| " + name + " | failed: " + result.failure().replace('|', '/').replace('\n', ' ')
                        + " | | | | | | | | | | | |");
                continue;
            }
            out.println("| " + name + " | B alone | " + victim(result.bAlone()) + " | — | — | — | — |");
            out.println("| " + name + " | B beside a CPU hog | " + victim(result.bBesideHog()) + " | — | — | — | — |");
            out.println("| " + name + " | A alone | — | — | — | — | — | — | — | " + load(result.aAlone()) + " |");
            out.println("| " + name + " | B beside A | " + victim(result.bBeside()) + " | " + load(result.aBeside())
                    + " |");
        }
        out.println();
        for (String line : settings) {
            out.println(line);
        }
        Set<String> notes = new LinkedHashSet<>();
        for (ScenarioResult result : results) {
            for (String note : result.notes()) {
                notes.add(note);
            }
            String problem = result.problem();
            if (problem != null) {
                notes.add("**" + result.scenario().title() + ": not a valid measurement: " + problem + "**");
            }
        }
        if (!notes.isEmpty()) {
            out.println();
            out.println("Notes:");
            out.println();
            for (String note : notes) {
                out.println("- " + note);
            }
        }
        out.flush();
    }

    private static String percentiles(VictimResult result) {
        return String.format(Locale.ROOT, "%s/%s/%s ms", millis(result.p50()), millis(result.p99()),
                millis(result.p999()));
    }

    private static String victim(VictimResult result) {
        return String.format(Locale.ROOT, "%,d | %s ms | %s ms | %s ms | %s ms | %s ms | %d", result.requests(),
                millis(result.p50()), millis(result.p90()), millis(result.p99()), millis(result.p999()),
                millis(result.max()), result.errors());
    }

    private static String load(LoadResult result) {
        return String.format(Locale.ROOT, "%,.0f | %,.1f | %s | %d", result.requestsPerSecond(),
                result.mebibytesPerSecond(), result.errorSummary(), result.connectionsLost());
    }

    static String millis(long nanos) {
        double ms = nanos / 1e6;
        return String.format(Locale.ROOT, ms < 10 ? "%.3f" : ms < 100 ? "%.2f" : "%.1f", ms);
    }

    private static String met(boolean met) {
        return met ? "yes" : "**no**";
    }
}
