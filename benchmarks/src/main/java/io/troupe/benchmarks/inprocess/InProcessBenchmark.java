package io.troupe.benchmarks.inprocess;

import java.util.concurrent.TimeUnit;

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
import org.openjdk.jmh.annotations.Warmup;

/**
 * The in-process workloads on Troupe and on Apache Pekko: one operation is one round of
 * {@link #workload} ({@link WorkloadKind#messagesPerRound} messages), so the score in rounds/s times
 * the round size is msgs/s; {@link InProcessSuite} does that arithmetic and prints the comparison.
 * Each fork sets up one runtime and one workload.
 *
 * <p>Run alone: {@code java -jar benchmarks.jar InProcessBenchmark -p workload=ping_pong_1}; the Pekko
 * settings are parameters too ({@code -p pekkoThroughput=1,5,20,100}).
 *
 * <p><b>Threading:</b> JMH's: one benchmark thread per fork drives the rounds.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class InProcessBenchmark {

    @Param({"troupe", "pekko"})
    public String runtime;

    @Param({"ping_pong_1", "ping_pong_4x100", "fan_out", "mailbox_4", "mailbox_16", "spawn_stop", "ring", "chameneos",
        "big", "fork_join"})
    public String workload;

    /** Actors per spawn-and-stop round. */
    @Param({"1000000"})
    public int spawnCount;

    @Param({PekkoSettings.DEFAULT_EXECUTOR})
    public String pekkoExecutor;

    @Param({PekkoSettings.DEFAULT_THROUGHPUT})
    public int pekkoThroughput;

    @Param({PekkoSettings.DEFAULT_MAILBOX})
    public String pekkoMailbox;

    private BenchRuntime bench;
    private Workload round;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        bench = switch (runtime) {
            case "troupe" -> new TroupeBench();
            case "pekko" -> new PekkoBench(new PekkoSettings(pekkoExecutor, pekkoThroughput, pekkoMailbox));
            default -> throw new IllegalArgumentException("runtime must be troupe or pekko, was " + runtime);
        };
        round = bench.create(WorkloadKind.ofParam(workload), spawnCount);
    }

    @Benchmark
    public void round() throws Exception {
        round.runRound();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        bench.close();
    }
}
