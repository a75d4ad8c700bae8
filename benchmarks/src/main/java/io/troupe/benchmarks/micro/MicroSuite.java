package io.troupe.benchmarks.micro;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.VerboseMode;

import io.troupe.benchmarks.LineCount;

/**
 * The JMH micro-benchmarks as one suite: {@link MailboxBenchmark}, {@link CodecBenchmark} and the
 * logger against Log4j2 and Logback ({@code io.troupe.benchmarks.LoggerBenchmark}), run through
 * JMH's Runner API and reported as markdown tables (see {@link MicroReport}), followed by JMH's own
 * result table.
 *
 * <pre>
 *   java -cp benchmarks/target/benchmarks.jar io.troupe.benchmarks.micro.MicroSuite [--quick]
 * </pre>
 *
 * Settings: {@link MicroSettings#FULL} (about 10 minutes on 2 cores) or, with {@code --quick},
 * {@link MicroSettings#QUICK} (about 2 minutes). JMH's progress goes to stderr, the report to stdout;
 * the exit status is 0 when every benchmark ran, whatever the numbers, and 1 when one failed.
 *
 * <p>Threading: a main method; JMH runs the benchmarks in forked JVMs.
 */
public final class MicroSuite {

    /** The system property naming the logger benchmarks' folder ({@code LoggerBenchmark} reads it). */
    static final String LOGGER_DIR_PROPERTY = "bench.dir";
    /** Linux's shared-memory tmpfs. */
    static final String MEMORY_FOLDER = "/dev/shm";

    private MicroSuite() {
    }

    public static void main(String[] args) {
        MicroSettings settings = List.of(args).contains("--quick") ? MicroSettings.QUICK : MicroSettings.FULL;
        PrintStream report = System.out;
        // JMH copies what forked benchmarks print to this JVM's System.out: keep stdout for the report
        System.setOut(System.err);
        try {
            report.print(run(settings, System.err));
            report.flush();
        } catch (Exception | Error e) {
            System.err.println("The micro-benchmark suite failed: " + e);
            e.printStackTrace(System.err);
            System.exit(1);
        }
    }

    /** Runs the benchmarks of {@code settings}, reporting progress to {@code progress}; returns the report. */
    static String run(MicroSettings settings, PrintStream progress) throws RunnerException, IOException {
        Path counts = Files.createTempFile("troupe-logger-counts-", ".txt");
        try {
            if (settings.forks() == 0) {
                // a smoke run in a test JVM measures nothing worth protecting from another JMH run
                System.setProperty("jmh.ignoreLock", "true");
                // no forked JVM to pass the folder to: LoggerBenchmark reads this JVM's property
                System.setProperty(LOGGER_DIR_PROPERTY, loggerFolder());
            }
            List<String> others = settings.includes().stream()
                    .filter(include -> !include.startsWith(MicroSettings.LOGGER)).toList();
            List<String> logger = settings.includes().stream()
                    .filter(include -> include.startsWith(MicroSettings.LOGGER)).toList();
            List<RunResult> results = new ArrayList<>();
            results.addAll(runJmh(settings, settings.forks(), others, counts, progress));
            results.addAll(runJmh(settings, settings.loggerForks(), logger, counts, progress,
                    "-D" + LOGGER_DIR_PROPERTY + "=" + loggerFolder()));
            return new MicroReport(settings, results, readCounts(counts)).markdown();
        } finally {
            Files.deleteIfExists(counts);
        }
    }

    /**
     * Where the logger benchmarks write their files: {@code -Dbench.dir} if this JVM was given one, else
     * {@value #MEMORY_FOLDER} where it is a writable folder (a tmpfs on Linux), else the temporary folder.
     * In memory, every logger is measured the same way: on a disk the kernel starts writing dirty pages
     * back once about a tenth of the free memory is dirty (about 2.3 GB on the 24 GiB of the reference
     * machine), and its writeback then takes CPU from the benchmark's cores in the middle of the forks
     * that wrote the most during their warm-up, that is, the fastest logger's.
     */
    static String loggerFolder() {
        String chosen = System.getProperty(LOGGER_DIR_PROPERTY);
        if (chosen != null) {
            return chosen;
        }
        Path memory = Path.of(MEMORY_FOLDER);
        return Files.isDirectory(memory) && Files.isWritable(memory) ? MEMORY_FOLDER
                : System.getProperty("java.io.tmpdir");
    }

    private static Collection<RunResult> runJmh(MicroSettings settings, int forks, List<String> includes, Path counts,
            PrintStream progress, String... jvmArgs) throws RunnerException {
        if (includes.isEmpty()) {
            return List.of();
        }
        ChainedOptionsBuilder options = new OptionsBuilder()
                .forks(forks)
                .warmupIterations(settings.warmupIterations())
                .warmupTime(settings.warmupTime())
                .measurementIterations(settings.measurementIterations())
                .measurementTime(settings.measurementTime())
                // prepended, so that each benchmark's own @Fork(jvmArgsAppend) stays in force
                .jvmArgsPrepend(withReport(jvmArgs, "-D" + LineCount.REPORT_PROPERTY + "=" + counts))
                .shouldFailOnError(true);
        for (String include : includes) {
            options.include(include);
        }
        return new Runner(options.build(), OutputFormatFactory.createFormatInstance(progress, VerboseMode.NORMAL))
                .run();
    }

    private static String[] withReport(String[] jvmArgs, String report) {
        String[] all = Arrays.copyOf(jvmArgs, jvmArgs.length + 1);
        all[jvmArgs.length] = report;
        return all;
    }

    private static List<LineCount> readCounts(Path file) throws IOException {
        List<LineCount> counts = new ArrayList<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            LineCount count = LineCount.parse(line);
            counts.add(Objects.requireNonNull(count, () -> "not a line count: " + line));
        }
        return counts;
    }
}
