package io.troupe.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Troupe's asynchronous logger against Log4j2's all-async loggers and Logback's AsyncAppender: the
 * same 100-byte INFO message, the same line layout, files in one temporary folder on the same disk
 * ({@code -Dbench.dir=...} to choose it). Each fork sets up one implementation ({@link #impl}),
 * and tears it down with a full flush; it then counts the lines in the file against the calls made
 * and prints {@code calls, lines, dropped, lost} so that a fast but lossy run shows (see
 * {@link LineCount}; with {@code -Dbench.logger.report=FILE} the line is also appended to FILE, which
 * is how {@code MicroSuite} puts it into the results).
 *
 * <p>Throughput (ops/s) and the sampled distribution of the time per call (ns; p50, p99, p99.9), each
 * with 1, 2 and 4 producer threads. {@code MicroSuite} runs each in 3 forks.
 */
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class LoggerBenchmark {

    static final String LOGGER_NAME = "io.troupe.benchmarks.LoggerBenchmark";
    /** 100 bytes of ASCII. */
    static final String MESSAGE =
            "Order 4711 accepted for tenant acme: 3 items, total 149.97 EUR, shipping to warehouse DE-MUC-07 now.";

    @Param({"troupe", "log4j2", "logback"})
    public String impl;

    private BenchLogger logger;
    private final List<Calls> callers = new CopyOnWriteArrayList<>();

    /** Calls made by one benchmark thread, counted without contention. */
    @State(Scope.Thread)
    public static class Calls {
        long count;

        @Setup(Level.Trial)
        public void register(LoggerBenchmark benchmark) {
            benchmark.callers.add(this);
        }
    }

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        if (MESSAGE.length() != 100) {
            throw new IllegalStateException("the message has " + MESSAGE.length() + " bytes");
        }
        String base = System.getProperty("bench.dir", System.getProperty("java.io.tmpdir"));
        Path folder = Files.createTempDirectory(Path.of(base), "logbench-" + impl + "-");
        logger = switch (impl) {
            case "troupe" -> new TroupeBenchLogger(folder);
            case "log4j2" -> new Log4j2BenchLogger(folder);
            case "logback" -> new LogbackBenchLogger(folder);
            default -> throw new IllegalArgumentException(impl);
        };
    }

    @TearDown(Level.Trial)
    public void tearDown(BenchmarkParams params) throws IOException {
        long dropped = logger.close();
        long calls = 0;
        for (Calls c : callers) {
            calls += c.count;
        }
        long lines = countLinesAndDelete(logger.folder());
        LineCount count = new LineCount(params.getBenchmark(), impl, calls, lines, dropped);
        System.out.printf("%n%s%n", count);
        String report = System.getProperty(LineCount.REPORT_PROPERTY);
        if (report != null) {
            Files.writeString(Path.of(report), count + System.lineSeparator(), StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        }
    }

    @Benchmark
    @Threads(1)
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public void throughput1Thread(Calls calls) {
        logger.info(MESSAGE);
        calls.count++;
    }

    @Benchmark
    @Threads(2)
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public void throughput2Threads(Calls calls) {
        logger.info(MESSAGE);
        calls.count++;
    }

    @Benchmark
    @Threads(4)
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    public void throughput4Threads(Calls calls) {
        logger.info(MESSAGE);
        calls.count++;
    }

    @Benchmark
    @Threads(1)
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public void sampled1Thread(Calls calls) {
        logger.info(MESSAGE);
        calls.count++;
    }

    @Benchmark
    @Threads(2)
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public void sampled2Threads(Calls calls) {
        logger.info(MESSAGE);
        calls.count++;
    }

    @Benchmark
    @Threads(4)
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    public void sampled4Threads(Calls calls) {
        logger.info(MESSAGE);
        calls.count++;
    }

    /**
     * Counts the lines that end with the benchmark message's last bytes (so the loggers' own lines
     * are left out) in every file under {@code folder}, then deletes the folder.
     */
    private static long countLinesAndDelete(Path folder) throws IOException {
        long lines = 0;
        List<Path> files;
        try (Stream<Path> walk = Files.walk(folder)) {
            files = walk.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList();
        }
        byte[] buffer = new byte[1 << 20];
        int tail = ('n' << 24) | ('o' << 16) | ('w' << 8) | '.'; // "now." before the newline
        for (Path file : files) {
            if (Files.isRegularFile(file)) {
                int last4 = 0;
                try (InputStream in = Files.newInputStream(file)) {
                    for (int n; (n = in.read(buffer)) > 0;) {
                        for (int i = 0; i < n; i++) {
                            byte b = buffer[i];
                            if (b == '\n' && last4 == tail) {
                                lines++;
                            }
                            last4 = (last4 << 8) | (b & 0xff);
                        }
                    }
                }
            }
            Files.delete(file);
        }
        return lines;
    }
}
