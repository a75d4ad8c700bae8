package io.troupe.benchmarks.micro;

import java.util.List;

import org.openjdk.jmh.runner.options.TimeValue;

/**
 * How long and which of the JMH micro-benchmarks {@link MicroSuite} runs.
 *
 * <p>Threading: immutable.
 *
 * @param name     how the run is called in the report
 * @param forks       JMH forks per benchmark; 0 runs in this JVM (smoke tests only: the logger
 *                    benchmark needs a JVM per implementation)
 * @param loggerForks JMH forks per logger benchmark (its results move from fork to fork more than the
 *                    others')
 * @param includes    JMH include patterns
 */
record MicroSettings(String name, int forks, int loggerForks, int warmupIterations, TimeValue warmupTime,
        int measurementIterations, TimeValue measurementTime, List<String> includes) {

    static final String MAILBOX = MailboxBenchmark.class.getName() + "\\.";
    static final String CODEC = CodecBenchmark.class.getName() + "\\.";
    static final String LOGGER = "io\\.troupe\\.benchmarks\\.LoggerBenchmark\\.";

    /** About 10 minutes on 2 cores: every benchmark in one fork, the logger's in three. */
    static final MicroSettings FULL = new MicroSettings("full", 1, 3, 3, TimeValue.seconds(1), 5,
            TimeValue.seconds(1), List.of(MAILBOX, CODEC, LOGGER));

    /** About 2 minutes: one warm-up and one measured second per benchmark, logger throughput only. */
    static final MicroSettings QUICK = new MicroSettings("quick", 1, 1, 1, TimeValue.seconds(1), 1,
            TimeValue.seconds(1), List.of(MAILBOX, CODEC, LOGGER + "throughput"));

    /** Seconds, in the calling JVM: for the smoke test; mailbox and codec only. */
    static final MicroSettings SMOKE = new MicroSettings("smoke", 0, 0, 1, TimeValue.milliseconds(100), 1,
            TimeValue.milliseconds(200), List.of(MAILBOX, CODEC));

    /** One line for the report: what was run and how. */
    String describe() {
        return String.format("JMH, %s run: %s (the logger's: %s), warm-up %d × %s, measurement %d × %s per benchmark",
                name, forks(forks), forks(loggerForks), warmupIterations, warmupTime, measurementIterations,
                measurementTime);
    }

    private static String forks(int count) {
        return count == 0 ? "no fork" : count + " fork" + (count > 1 ? "s" : "");
    }
}
