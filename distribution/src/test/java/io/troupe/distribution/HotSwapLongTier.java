package io.troupe.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.troupe.client.ClientLoop;
import io.troupe.distribution.history.CheckReport;
import io.troupe.distribution.history.CounterChecker;
import io.troupe.distribution.history.CounterWorkload;
import io.troupe.distribution.history.DurabilityPromise;
import io.troupe.distribution.history.History;
import io.troupe.distribution.history.Progress;
import io.troupe.distribution.history.Tally;
import io.troupe.distribution.history.TenantConnector;
import io.troupe.distribution.longtier.ServerGauges;

/**
 * Long tier (not in the default build: {@code -Plong-tier}, or {@code reliability/long-tier}): a hundred hot
 * swaps of the durable counter (1.0.0 to 2.0.0 and back, as an operator's script does them: a jar renamed into
 * {@code deploy/}, its status awaited) under a paced load of 10,000 requests per second. Nothing may be lost or
 * fail: every request acknowledged (none failed, none of unknown outcome), the achieved rate at least 90 % of
 * the target, the history checker content (every add counted once); and the server's heap and metaspace after
 * a full collection end within 10 % of where they started (the start being after two warm-up swaps, which
 * load the swap machinery's own classes once).
 *
 * <p>Settings (system properties): {@code longtier.swaps} (100), {@code longtier.swapRate} (10000 requests/s),
 * {@code longtier.historyFiles} (false: true keeps the history in {@code target/long-tier/}). Results are
 * printed and written to {@code target/long-tier/hot-swaps.txt}.
 *
 * <p><b>Threading:</b> JUnit's thread swaps; the workload has threads of its own.
 */
class HotSwapLongTier {

    private static final List<String> TENANTS = List.of("alpha", "beta");
    private static final int PROCESSES_PER_TENANT = 4;
    private static final int WINDOW = 32;
    private static final Duration PROGRESS = Duration.ofSeconds(60);
    private static final double ALLOWED_GROWTH = 0.10;
    private static final double RATE_KEPT = 0.90;
    private static final Path JAVA_HOME = Path.of(System.getProperty("java.home"));

    @TempDir
    Path dir;

    @Test
    void aHundredHotSwapsUnderTenThousandRequestsPerSecondLoseNothingAndLeakNothing() throws Exception {
        long swaps = LongTierRun.number("longtier.swaps", 100);
        long rate = LongTierRun.number("longtier.swapRate", 10_000);
        ServerGauges gauges = new ServerGauges(JAVA_HOME);
        StringBuilder report = new StringBuilder("hot swaps under load, " + Instant.now() + ": " + swaps
                + " swaps at a target of " + rate + " requests/s\n");
        List<CheckReport> reports;
        Tally tally;
        double achieved;
        ServerGauges.Reading before;
        ServerGauges.Reading after;
        try (ServerUnderTest server = ServerUnderTest.install(dir, TENANTS);
             ClientLoop loop = ClientLoop.create("hot-swap-long-tier", 2)) {
            server.start();
            ServerGauges.Reading fresh = gauges.read(server.jvm().pid(), true);
            History history = new History(List.of(new CounterChecker(DurabilityPromise.everyTurn())),
                    LongTierRun.historyFile("hot-swaps"));
            TenantConnector connector = new TenantConnector(loop, List.of(server.address()), Duration.ofSeconds(40),
                    Duration.ofSeconds(60));
            double perProcess = (double) rate / (TENANTS.size() * PROCESSES_PER_TENANT);
            List<Duration> took = new ArrayList<>();
            try (CounterWorkload load = CounterWorkload.start(history, connector, server.tenants(),
                    new CounterWorkload.Settings(PROCESSES_PER_TENANT, WINDOW, perProcess, 100), null)) {
                Progress.await("before the warm-up", () -> load.tally().acknowledged(), rate, PROGRESS,
                        load::toString);
                server.swapCounterInPlace(history, "2.0.0");
                server.swapCounterInPlace(history, "1.0.0");
                before = gauges.read(server.jvm().pid(), true);
                Tally start = load.tally();
                long started = System.nanoTime();
                for (long i = 1; i <= swaps; i++) {
                    took.add(server.swapCounterInPlace(history, i % 2 == 1 ? "2.0.0" : "1.0.0"));
                    Progress.await("after swap " + i, () -> load.tally().acknowledged(), Math.max(1, rate / 10),
                            PROGRESS, load::toString);
                }
                double seconds = (System.nanoTime() - started) / 1e9;
                tally = load.tally().since(start);
                achieved = tally.acknowledged() / seconds;
                load.stop();
                tally = load.tally();
                report.append(String.format("swaps: %d in %.1f s; each took %s%n", swaps, seconds, spread(took)));
                report.append(String.format("load: %.0f requests/s acknowledged during the swaps (target %d); whole"
                        + " run %s%n", achieved, rate, tally));
            }
            after = gauges.read(server.jvm().pid(), true);
            after = gauges.read(server.jvm().pid(), true);
            report.append("server at start " + fresh + "\n");
            report.append("server after the 2 warm-up swaps " + before + "\n");
            report.append("server after the " + swaps + " swaps " + after + "\n");
            report.append(String.format("growth: heap %+.1f %%, metaspace %+.1f %% (allowed +%.0f %%)%n",
                    growth(before.heapBytes(), after.heapBytes()),
                    growth(before.metaspaceBytes(), after.metaspaceBytes()), ALLOWED_GROWTH * 100));
            CounterWorkload.finalReads(history, connector, server.tenants());
            reports = history.finish();
            reports.forEach(checked -> report.append(checked).append('\n'));
            server.stop();
        }
        LongTierRun.report("hot-swaps.txt", report.toString());
        assertEquals(0, tally.problems(), "requests failed or lost: " + tally);
        assertTrue(achieved >= RATE_KEPT * rate, String.format("%.0f requests/s, below %.0f %% of %d", achieved,
                RATE_KEPT * 100, rate));
        reports.forEach(checked -> assertTrue(checked.valid(), checked::toString));
        assertTrue(after.heapBytes() <= before.heapBytes() * (1 + ALLOWED_GROWTH), "heap after GC grew from "
                + before + " to " + after);
        assertTrue(after.metaspaceBytes() <= before.metaspaceBytes() * (1 + ALLOWED_GROWTH), "metaspace grew from "
                + before + " to " + after);
    }

    private static double growth(long before, long after) {
        return (after - before) * 100.0 / before;
    }

    /** "median 812 ms, max 1530 ms". */
    private static String spread(List<Duration> took) {
        if (took.isEmpty()) {
            return "(none)";
        }
        List<Duration> sorted = new ArrayList<>(took);
        Collections.sort(sorted);
        return "median " + sorted.get(sorted.size() / 2).toMillis() + " ms, max "
                + sorted.get(sorted.size() - 1).toMillis() + " ms";
    }
}
