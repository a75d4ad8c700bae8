package io.troupe.distribution;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import io.troupe.client.ClientLoop;
import io.troupe.distribution.history.ChatChecker;
import io.troupe.distribution.history.ChatWorkload;
import io.troupe.distribution.history.CheckReport;
import io.troupe.distribution.history.ChurnWorkload;
import io.troupe.distribution.history.CounterChecker;
import io.troupe.distribution.history.CounterWorkload;
import io.troupe.distribution.history.DurabilityPromise;
import io.troupe.distribution.history.History;
import io.troupe.distribution.history.Progress;
import io.troupe.distribution.history.TenantConnector;
import io.troupe.distribution.longtier.LatencyWindow;
import io.troupe.distribution.longtier.Series;
import io.troupe.distribution.longtier.ServerGauges;
import io.troupe.distribution.longtier.Trend;

/**
 * Long tier (not in the default build: {@code -Plong-tier}, or {@code reliability/long-tier}): a soak of the
 * distribution. First its capacity is measured (the durable counter, as fast as {@value #PROCESSES} clients
 * with {@value #WINDOW} requests in flight each get answers); then, for the soak's length, a paced load at 70 %
 * of it runs on the counter, the chat talks, clients connect, make a few requests and disconnect, the counter
 * plugin is updated every minute (1.0.0 and 2.0.0 in turn) and the server is killed with SIGKILL every five
 * minutes and started again. Every operation goes into one history, checked at the end (zero violations of
 * every-turn durability). Every sampling interval the server's heap and metaspace after a full collection, its
 * threads and file descriptors, and the interval's p99 and request rate are taken; the series is printed with
 * a trend verdict per gauge, and none of heap, threads, file descriptors and p99 may trend upward ({@link Trend})
 * in a soak of 10 minutes or more (a shorter one prints its verdicts but is too short to tell a trend from noise).
 * The metaspace's trend is shown, not judged ({@link #SHOWN_ONLY}).
 *
 * <p>Settings (system properties): {@code soak.minutes} (30), {@code soak.updateSeconds} (60),
 * {@code soak.killSeconds} (300), {@code soak.sampleSeconds} (30), {@code soak.capacitySeconds} (20),
 * {@code soak.load} (0.7), {@code soak.warmUpSeconds} (60: samples this soon after a start are shown, not
 * judged), {@code longtier.historyFiles} (false). Results are printed and written to
 * {@code target/long-tier/soak.txt} and {@code soak-series.csv}.
 *
 * <p><b>Threading:</b> JUnit's thread schedules the faults and samples; the workloads have threads of their own.
 */
class SoakLongTier {

    private static final List<String> TENANTS = List.of("alpha", "beta");
    /** The capacity is measured on tenants of its own: the soak's counters start from 0, as the checker wants. */
    private static final List<String> CAPACITY_TENANTS = List.of("capacity1", "capacity2");
    private static final List<String> ROOMS = List.of("lobby");
    private static final int PROCESSES = 8;
    private static final int WINDOW = 16;
    private static final Duration PROGRESS = Duration.ofSeconds(60);
    /**
     * Gauges whose trend is printed but does not fail the soak. A server's metaspace grows for minutes after
     * each start while the JIT gathers method profiles; with a kill every five minutes each life is mostly that
     * warm-up, and the slope reads as a trend (2026-12-02: +4.7 MB extrapolated; with fifteen-minute lives the
     * same soak's metaspace was flat). The metaspace growth that matters, class loaders kept by plugin updates,
     * is judged by the swaps step: a hundred updates in one life, metaspace after GC within 10 % of the start.
     */
    static final Set<String> SHOWN_ONLY = Set.of("metaspace");
    /** The shortest soak whose trends fail the test: shorter ones print their verdicts only. */
    private static final Duration JUDGED = Duration.ofMinutes(10);
    private static final Path JAVA_HOME = Path.of(System.getProperty("java.home"));

    /** Kept when the test fails: the installation, its log/troupe.log and data/ are the evidence. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void aSoakWithUpdatesKillsAndChurnLosesNothingAndTrendsNowhere() throws Exception {
        Duration length = Duration.ofMinutes(LongTierRun.number("soak.minutes", 30));
        Duration update = LongTierRun.seconds("soak.updateSeconds", Duration.ofSeconds(60));
        Duration kill = LongTierRun.seconds("soak.killSeconds", Duration.ofMinutes(5));
        Duration sample = LongTierRun.seconds("soak.sampleSeconds", Duration.ofSeconds(30));
        Duration capacityRun = LongTierRun.seconds("soak.capacitySeconds", Duration.ofSeconds(20));
        double fraction = LongTierRun.fraction("soak.load", 0.7);
        Duration warmUp = LongTierRun.seconds("soak.warmUpSeconds", Duration.ofSeconds(60));
        assertNotEquals(0, sample.toSeconds(), "soak.sampleSeconds must be at least 1");

        ServerGauges gauges = new ServerGauges(JAVA_HOME);
        Series series = new Series(warmUp.toSeconds());
        StringBuilder report = new StringBuilder();
        List<CheckReport> reports;
        List<String> all = new ArrayList<>(TENANTS);
        all.addAll(CAPACITY_TENANTS);
        try (ServerUnderTest server = ServerUnderTest.install(dir, all);
             ClientLoop loop = ClientLoop.create("soak-long-tier", 2)) {
            server.start();
            long serverStarted = System.nanoTime();
            TenantConnector connector = new TenantConnector(loop, List.of(server.address()), Duration.ofSeconds(40),
                    Duration.ofSeconds(60));
            Map<String, String> tokens = new LinkedHashMap<>(server.tenants());
            Map<String, String> capacityTokens = new LinkedHashMap<>(tokens);
            tokens.keySet().retainAll(TENANTS);
            capacityTokens.keySet().retainAll(CAPACITY_TENANTS);
            double capacity = capacity(connector, capacityTokens, capacityRun);
            double rate = capacity * fraction;
            report.append(String.format("soak, %s: %d min at %.0f %% of a measured capacity of %.0f requests/s ="
                    + " %.0f requests/s; plugin update every %d s, kill -9 every %d s, a sample every %d s%n",
                    Instant.now(), length.toMinutes(), fraction * 100, capacity, rate, update.toSeconds(),
                    kill.toSeconds(), sample.toSeconds()));
            System.out.print(report);

            History history = new History(List.of(new CounterChecker(DurabilityPromise.everyTurn()),
                    new ChatChecker(ChatChecker.SAMPLE_CAP)), LongTierRun.historyFile("soak"));
            LatencyWindow latencies = new LatencyWindow();
            try (CounterWorkload counter = CounterWorkload.start(history, connector, tokens,
                    new CounterWorkload.Settings(PROCESSES / TENANTS.size(), WINDOW, rate / PROCESSES, 20),
                    latencies);
                 ChatWorkload chat = ChatWorkload.start(history, connector, tokens, ROOMS,
                    new ChatWorkload.Settings(2, 5, 5));
                 ChurnWorkload churn = ChurnWorkload.start(history, connector, tokens,
                    Duration.ofSeconds(1), 4)) {
                Progress.await("before the soak", () -> counter.tally().acknowledged(), (long) rate, PROGRESS,
                        counter::toString);
                latencies.drain();
                long began = System.nanoTime();
                long end = began + length.toNanos();
                long nextUpdate = began + update.toNanos();
                long nextKill = began + kill.toNanos();
                long nextSample = began + sample.toNanos();
                long lastAcked = counter.tally().acknowledged();
                long lastSample = began;
                int updates = 0;
                List<String> events = new ArrayList<>();
                while (true) {
                    long due = Math.min(nextSample, Math.min(nextUpdate, nextKill));
                    if (due - end > 0) {
                        break;
                    }
                    LockSupport.parkNanos(due - System.nanoTime());
                    if (due == nextKill) {
                        server.kill(history);
                        server.restart(history);
                        serverStarted = System.nanoTime();
                        events.add("kill -9");
                        nextKill += kill.toNanos();
                    } else if (due == nextUpdate) {
                        String version = ++updates % 2 == 1 ? "2.0.0" : "1.0.0";
                        Duration took = server.swapCounterInPlace(history, version);
                        events.add("update " + version + " (" + took.toMillis() + " ms)");
                        nextUpdate += update.toNanos();
                    } else {
                        long now = System.nanoTime();
                        long acked = counter.tally().acknowledged();
                        LatencyWindow.Interval interval = latencies.drain();
                        ServerGauges.Reading reading = gauges.read(server.jvm().pid(), true);
                        series.add(new Series.Sample((now - began) / 1e9, server.jvm().pid(),
                                (now - serverStarted) / 1e9, reading, interval,
                                (acked - lastAcked) / ((now - lastSample) / 1e9), String.join(", ", events)));
                        System.out.println("[soak] " + series.table().lines().reduce((a, b) -> b).orElse(""));
                        events.clear();
                        lastAcked = acked;
                        lastSample = now;
                        nextSample += sample.toNanos();
                    }
                }
                counter.stop();
                chat.stop();
                report.append("load: ").append(counter).append("; ").append(chat).append("; ").append(churn)
                        .append('\n');
            }
            CounterWorkload.finalReads(history, connector, tokens);
            ChatWorkload.finalReads(history, connector, tokens, ROOMS);
            reports = history.finish();
            server.stop();
        }
        report.append("series:\n").append(series.table());
        report.append("trends (no upward trend allowed; " + SHOWN_ONLY + " shown, not judged):\n");
        List<Trend> trends = series.trends();
        trends.forEach(trend -> report.append("  ").append(trend)
                .append(SHOWN_ONLY.contains(trend.metric()) ? "  (shown, not judged)" : "").append('\n'));
        boolean flat = trends.stream().filter(trend -> !SHOWN_ONLY.contains(trend.metric()))
                .noneMatch(trend -> trend.verdict() == Trend.Verdict.UP);
        boolean judged = length.compareTo(JUDGED) >= 0;
        report.append("verdict: ").append(flat ? "no upward trend" : "UPWARD TREND").append(judged ? "" : " (a soak"
                + " shorter than " + JUDGED.toMinutes() + " min is too short to tell a trend from noise: not judged)")
                .append('\n');
        reports.forEach(checked -> report.append(checked).append('\n'));
        LongTierRun.report("soak.txt", report.toString());
        series.writeCsv(LongTierRun.OUTPUT.resolve("soak-series.csv"));
        reports.forEach(checked -> assertTrue(checked.valid(), () -> checked + "\nthe installation is kept in " + dir));
        assertTrue(flat || !judged, () -> "an upward trend: " + trends);
    }

    /**
     * The durable counter's capacity on this machine: requests acknowledged per second by {@value #PROCESSES}
     * clients keeping {@value #WINDOW} requests in flight each, over {@code run} (after a first second not
     * counted), its history checked too.
     */
    private static double capacity(TenantConnector connector, Map<String, String> tokens, Duration run)
            throws Exception {
        History history = new History(List.of(new CounterChecker(DurabilityPromise.everyTurn())), null);
        double rate;
        try (CounterWorkload load = CounterWorkload.start(history, connector, tokens,
                new CounterWorkload.Settings(PROCESSES / tokens.size(), WINDOW, 0, 0), null)) {
            Progress.await("while measuring the capacity", () -> load.tally().acknowledged(), 1000, PROGRESS,
                    load::toString);
            long from = load.tally().acknowledged();
            long started = System.nanoTime();
            LockSupport.parkNanos(run.toNanos());
            rate = (load.tally().acknowledged() - from) / ((System.nanoTime() - started) / 1e9);
            load.stop();
        }
        CounterWorkload.finalReads(history, connector, tokens);
        history.finish().forEach(checked -> assertTrue(checked.valid(), checked::toString));
        return rate;
    }
}
