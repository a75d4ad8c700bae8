package io.troupe.benchmarks.cluster;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The markdown report of one run of {@link ClusterSuite}: the time line (requests/s, p99 and errors per
 * second, with the events), the pause of each moved tenant per event (as its clients saw it and as the
 * cluster logged it, p50/p99/max), and the check of the stored counters against the acknowledged adds.
 *
 * <p><b>Threading:</b> built and printed on the suite thread, after the load stopped.
 */
final class ClusterReport {

    /** The label's end of the kill -9 event. */
    static final String KILLED = " killed (kill -9)";

    private static final Pattern TAKEN_OVER = Pattern.compile(
            "Tenant (\\S+) taken over from node \\S+ \\((\\w+)\\): unserved for (\\d+) ms");

    private final ClusterOptions options;
    private final ClusterTimeline timeline;
    private final SteadyLoad load;
    private final Map<String, Long> stored;
    private final List<String> takenOverLines;
    private final List<String> problems = new ArrayList<>();

    ClusterReport(ClusterOptions options, ClusterTimeline timeline, SteadyLoad load, Map<String, Long> stored,
            List<String> takenOverLines) {
        this.options = options;
        this.timeline = timeline;
        this.load = load;
        this.stored = stored;
        this.takenOverLines = takenOverLines;
    }

    /** What went wrong (failed requests, acknowledged adds not stored); empty after a clean run. */
    List<String> problems() {
        return List.copyOf(problems);
    }

    void print(PrintStream out) {
        printTimeline(out);
        out.println();
        printPauses(out);
        out.println();
        printCounters(out);
    }

    private void printTimeline(PrintStream out) {
        out.println("Requests answered per second of the run (a request counts in the second its answer came), the "
                + "p99 latency of those answers, and the requests that failed:");
        out.println();
        out.println("| s | nodes | req/s | p99 ms | errors | event |");
        out.println("|---:|---:|---:|---:|---:|---|");
        int from = (int) Math.floor(timeline.measuredFrom());
        int to = (int) Math.floor(timeline.end()); // whole seconds: a last partial one would look like a dip
        for (int second = from; second < to; second++) {
            long p99 = load.p99Micros(second);
            out.printf(Locale.ROOT, "| %d | %d | %d | %s | %d | %s |%n", second - from, timeline.nodesAt(second),
                    load.answers(second), p99 < 0 ? "-" : String.format(Locale.ROOT, "%.1f", p99 / 1000.0),
                    load.errors(second), String.join("; ", timeline.eventsIn(second)));
        }
    }

    private void printPauses(PrintStream out) {
        double joinFrom = timeline.at(" starts");
        double leaveFrom = timeline.at(" stops (bin/troupe stop)");
        double crashFrom = timeline.at(KILLED);
        double end = timeline.end();
        out.println("The pause of each moved tenant. Client side: the longest gap between two answers of a tenant "
                + "whose clients were redirected (BYE tenant.moved) during the event, or lost their session to the "
                + "killed node, from the event to the next one. "
                + "Cluster side: the new owner's \"unserved for\" time (from the old owner's pause to its own start, "
                + "wall clocks of one machine), from its log. Unmoved tenants: their longest gap over the same span.");
        out.println();
        out.println("| event | tenants moved | client pause p50 / p99 / max ms | cluster pause p50 / p99 / max ms "
                + "| unmoved tenants' longest gap ms |");
        out.println("|---|---:|---|---|---:|");
        printPauseRow(out, "join of a 4th node", "JOIN", joinFrom, leaveFrom);
        printPauseRow(out, "graceful leave (bin/troupe stop)", "LEAVE", leaveFrom, crashFrom);
        printPauseRow(out, "crash (kill -9)", "CRASH", crashFrom, end);
    }

    private void printPauseRow(PrintStream out, String label, String cause, double from, double to) {
        boolean crash = cause.equals("CRASH");
        List<Double> moved = new ArrayList<>();
        double unmoved = 0;
        List<String> movedNames = new ArrayList<>();
        for (SteadyLoad.TenantRecord tenant : load.tenants().values()) {
            double gap = tenant.longestGap(from, to);
            if (tenant.redirectedIn(from, to) || crash && tenant.disconnectedIn(from, to)) {
                moved.add(gap);
                movedNames.add(tenant.tenant());
            } else {
                unmoved = Math.max(unmoved, gap);
            }
        }
        List<Double> logged = new ArrayList<>();
        for (String line : takenOverLines) {
            Matcher matcher = TAKEN_OVER.matcher(line);
            if (matcher.find() && matcher.group(2).equals(cause)) {
                logged.add(Double.parseDouble(matcher.group(3)));
            }
        }
        out.printf(Locale.ROOT, "| %s | %d (%s) | %s | %s | %.0f |%n", label, moved.size(),
                String.join(", ", movedNames), summary(moved), summary(logged) + " (" + logged.size() + " logged)",
                unmoved);
    }

    private void printCounters(PrintStream out) {
        double crashFrom = timeline.at(KILLED);
        double end = Double.POSITIVE_INFINITY; // failures reported after the end still belong to the crash
        long acked = 0;
        long storedSum = 0;
        long failed = 0;
        long inFlightAtCrash = 0;
        List<String> lost = new ArrayList<>();
        String firstFailure = null;
        for (SteadyLoad.TenantRecord tenant : load.tenants().values()) {
            long told = tenant.acked();
            long kept = stored.getOrDefault(tenant.tenant(), -1L);
            long crashed = tenant.failedIn(crashFrom, end);
            acked += told;
            storedSum += kept;
            failed += tenant.failed() - crashed;
            inFlightAtCrash += crashed;
            if (firstFailure == null && tenant.failed() > crashed) {
                firstFailure = tenant.firstFailure();
            }
            if (kept < told || kept > told + crashed) {
                lost.add(tenant.tenant() + ": " + told + " acknowledged, " + crashed + " in flight at the crash, "
                        + kept + " stored");
            }
        }
        out.printf(Locale.ROOT, "Adds in flight on the killed node, which the client does not send again (not "
                + "idempotent) and reports failed: %d; each may or may not have been applied, so each tenant's "
                + "stored total must lie between its acknowledged adds and those plus its adds in flight.%n",
                inFlightAtCrash);
        out.printf(Locale.ROOT, "Adds acknowledged %,d, stored in the counters %,d; other requests failed %d%s. Load: %d "
                + "tenants × %d connections, %d requests/s in all (paced), at most %d in flight per connection; "
                + "warm-up %d s, then %d s per phase; node JVMs `%s`.%n", acked, storedSum, failed,
                lost.isEmpty() ? "; every total is within its bounds" : "; **counters out of bounds: "
                        + String.join(", ", lost) + "**", options.tenants(), options.clientsPerTenant(), options.rate(),
                options.window(), options.warmup().toSeconds(), options.phase().toSeconds(), options.jvmOptions());
        if (failed > 0) {
            problems.add(failed + " requests failed (first: " + firstFailure + ")");
        }
        if (!lost.isEmpty()) {
            problems.add("stored counters out of their bounds: " + String.join(", ", lost));
        }
    }

    /** {@code p50 / p99 / max} of {@code values} (nearest rank), or "-" when there are none. */
    static String summary(List<Double> values) {
        if (values.isEmpty()) {
            return "-";
        }
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return String.format(Locale.ROOT, "%.0f / %.0f / %.0f", rank(sorted, 50), rank(sorted, 99),
                sorted.get(sorted.size() - 1));
    }

    private static double rank(List<Double> sorted, int percentile) {
        int index = (int) Math.ceil(percentile / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
    }
}
