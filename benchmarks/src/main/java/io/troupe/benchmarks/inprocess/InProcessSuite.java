package io.troupe.benchmarks.inprocess;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * The in-process suite, Troupe against Apache Pekko: runs {@link InProcessBenchmark} for every
 * workload on both runtimes (JMH's Runner API, one fork per runtime and workload), measures the heap
 * retained per idle actor in a fresh JVM per runtime ({@link RetainedHeap}), and prints one markdown
 * table (workload, Troupe, Pekko, ratio, target, met), the geometric mean of the workloads' ratios
 * against its target, and both runtimes' settings.
 *
 * <pre>
 *   java -cp benchmarks/target/benchmarks.jar io.troupe.benchmarks.inprocess.InProcessSuite [--quick]
 * </pre>
 *
 * <p>The full run (about 8 minutes on 2 cores) warms up 3 × 2 s and measures 5 × 2 s per fork and
 * spawns and stops 1 000 000 actors per round. {@code --quick} is a smoke run (well under a minute):
 * no forks, one short iteration each, 20 000 actors per spawn round (the time for 1 000 000 is then
 * extrapolated) and 20 000 idle actors for the heap. Progress goes to stderr, the table to stdout;
 * the exit status is 0 when everything ran, whether or not the targets are met, and 1 on errors.
 *
 * <p><b>Threading:</b> a main method; JMH runs the benchmarks in forked JVMs (in this one with
 * {@code --quick}).
 */
public final class InProcessSuite {

    static final int FULL_SPAWN_COUNT = 1_000_000;
    static final int QUICK_SPAWN_COUNT = 20_000;
    static final int FULL_IDLE_ACTORS = 200_000;
    static final int QUICK_IDLE_ACTORS = 20_000;
    static final double MAX_BYTES_PER_ACTOR = 300;
    static final String HEAP_LABEL = "retained heap per idle actor (bytes)";
    static final String SPAWN_TIME_LABEL = "spawn + stop 1 000 000 actors (s)";
    static final String GEOMETRIC_MEAN_LABEL = "Geometric mean of the workloads' ratios";

    private InProcessSuite() {
    }

    public static void main(String[] args) {
        boolean quick = List.of(args).contains("--quick");
        try {
            System.out.print(run(quick, System.err));
            System.out.flush();
        } catch (Exception | Error e) {
            System.err.println("The in-process suite failed: " + e);
            e.printStackTrace(System.err);
            System.exit(1);
        }
    }

    /**
     * Runs the suite, reporting progress to {@code progress}, and returns the report: the table, then
     * the settings.
     */
    static String run(boolean quick, PrintStream progress) throws RunnerException, IOException, InterruptedException {
        int spawnCount = quick ? QUICK_SPAWN_COUNT : FULL_SPAWN_COUNT;
        Map<WorkloadKind, double[]> rates = measureWorkloads(quick, spawnCount, progress);
        int idleActors = quick ? QUICK_IDLE_ACTORS : FULL_IDLE_ACTORS;
        progress.println("Retained heap: " + idleActors + " idle actors per runtime, each in a fresh JVM");
        double troupeBytes = retainedBytesPerActor("troupe", idleActors, progress);
        double pekkoBytes = retainedBytesPerActor("pekko", idleActors, progress);

        List<ComparisonRow> rows = new ArrayList<>();
        double logRatios = 0;
        for (WorkloadKind kind : WorkloadKind.values()) {
            double[] both = rates.get(kind);
            String unit = kind == WorkloadKind.SPAWN_STOP ? "" : " (msgs/s)";
            ComparisonRow row = ComparisonRow.higherIsBetter(kind.label() + unit, both[0], both[1], kind.target());
            rows.add(row);
            logRatios += Math.log(row.ratio());
        }
        double geometricMean = Math.exp(logRatios / WorkloadKind.values().length);
        double[] spawn = rates.get(WorkloadKind.SPAWN_STOP);
        rows.add(ComparisonRow.lowerIsBetter(SPAWN_TIME_LABEL + (quick ? ", extrapolated" : ""),
                FULL_SPAWN_COUNT / spawn[0], FULL_SPAWN_COUNT / spawn[1], 1.0));
        rows.add(ComparisonRow.ceiling(HEAP_LABEL, troupeBytes, pekkoBytes, MAX_BYTES_PER_ACTOR, "B"));
        return report(rows, geometricMean, quick, spawnCount, idleActors);
    }

    /** Rounds/s from JMH, turned into msgs/s: index 0 Troupe, 1 Pekko. */
    private static Map<WorkloadKind, double[]> measureWorkloads(boolean quick, int spawnCount, PrintStream progress)
            throws RunnerException {
        ChainedOptionsBuilder options = new OptionsBuilder()
                .include(InProcessBenchmark.class.getName() + ".round")
                .param("runtime", "troupe", "pekko")
                .param("spawnCount", Integer.toString(spawnCount))
                .shouldFailOnError(true);
        if (quick) {
            // a smoke run measures nothing worth protecting from a concurrent JMH run (another module's smoke test)
            System.setProperty("jmh.ignoreLock", "true");
            options.forks(0)
                    .warmupIterations(1).warmupTime(TimeValue.milliseconds(200))
                    .measurementIterations(1).measurementTime(TimeValue.milliseconds(300));
        }
        Collection<RunResult> results = new Runner(options.build(),
                OutputFormatFactory.createFormatInstance(progress, VerboseMode.NORMAL)).run();
        Map<WorkloadKind, double[]> rates = new EnumMap<>(WorkloadKind.class);
        for (RunResult result : results) {
            WorkloadKind kind = WorkloadKind.ofParam(result.getParams().getParam("workload"));
            int index = result.getParams().getParam("runtime").equals("troupe") ? 0 : 1;
            double roundsPerSecond = result.getPrimaryResult().getScore();
            rates.computeIfAbsent(kind, k -> new double[2])[index] = roundsPerSecond * kind.messagesPerRound(spawnCount);
        }
        for (WorkloadKind kind : WorkloadKind.values()) {
            double[] both = rates.get(kind);
            if (both == null || both[0] <= 0 || both[1] <= 0) {
                throw new IllegalStateException("no result for " + kind.param() + " on both runtimes");
            }
        }
        return rates;
    }

    private static double retainedBytesPerActor(String runtime, int count, PrintStream progress)
            throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = List.of(java, "-XX:+UseSerialGC", "-Xms1g", "-Xmx1g",
                "-cp", System.getProperty("java.class.path"), RetainedHeap.class.getName(), runtime,
                Integer.toString(count));
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String answer = null;
        try (BufferedReader out = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = out.readLine()) != null; ) {
                if (line.startsWith("bytesPerActor=")) {
                    answer = line.substring("bytesPerActor=".length());
                } else {
                    progress.println("[" + runtime + "] " + line);
                }
            }
        }
        if (!process.waitFor(5, TimeUnit.MINUTES) || process.exitValue() != 0 || answer == null) {
            process.destroyForcibly();
            throw new IllegalStateException("the retained-heap measurement of " + runtime + " failed");
        }
        double bytes = Double.parseDouble(answer);
        progress.println("[" + runtime + "] " + bytes + " bytes per idle actor");
        return bytes;
    }

    private static String report(List<ComparisonRow> rows, double geometricMean, boolean quick, int spawnCount,
            int idleActors) {
        StringBuilder out = new StringBuilder();
        out.append("| workload | Troupe msgs/s | Pekko msgs/s | ratio | target | met |\n");
        out.append("|---|---:|---:|---:|---|---|\n");
        for (ComparisonRow row : rows) {
            out.append(row.markdown()).append('\n');
        }
        out.append('\n');
        boolean met = geometricMean >= WorkloadKind.GEOMETRIC_MEAN_TARGET;
        out.append(String.format(Locale.ROOT, "%s: %.2f× (target ≥ %.1f×: %s)%n", GEOMETRIC_MEAN_LABEL,
                geometricMean, WorkloadKind.GEOMETRIC_MEAN_TARGET, met ? "met" : "**not met**"));
        out.append('\n');
        out.append(String.format(Locale.ROOT, "%s run on %d cores, Java %s (%s). Ratios above 1.0 favour Troupe. "
                        + "Spawn rows: actors/s and seconds; %,d actors per round. Heap: %,d idle actors, "
                        + "used heap after full GC (serial collector) in a fresh JVM, divided by the count.%n",
                quick ? "Quick smoke" : "Full", Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version"), System.getProperty("java.vm.name"), spawnCount, idleActors));
        out.append('\n').append(TroupeBench.describeSettings()).append("\n\n");
        out.append(PekkoBench.describeSettings(new PekkoSettings(PekkoSettings.DEFAULT_EXECUTOR,
                Integer.parseInt(PekkoSettings.DEFAULT_THROUGHPUT), PekkoSettings.DEFAULT_MAILBOX)));
        return out.toString();
    }
}
