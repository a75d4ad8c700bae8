package io.troupe.benchmarks.inprocess;

import java.util.Locale;

/**
 * How the Pekko peer is tuned, as an expert would tune it for these workloads, and the HOCON that
 * says so. The defaults are the settings picked by measurement (see benchmarks/README.md, "In-process
 * suite"); the others stay selectable so that the choice can be re-checked:
 *
 * <ul>
 *   <li>{@code executor}: {@code fork-join} (the default dispatcher's {@code ForkJoinPool}, parallelism
 *       pinned to the cores instead of Pekko's default minimum of 8 threads) or {@code affinity}
 *       (Pekko's affinity pool: one bounded queue per thread, actors pinned to threads);</li>
 *   <li>{@code throughput}: messages per actor per turn (Pekko's default is 5);</li>
 *   <li>{@code mailbox}: {@code default} (Pekko's {@code UnboundedMailbox}, a
 *       {@code ConcurrentLinkedQueue}) or {@code single-consumer}
 *       ({@code SingleConsumerOnlyUnboundedMailbox}, the MPSC node queue Pekko documents as its fastest).</li>
 * </ul>
 *
 * <p><b>Threading:</b> immutable.
 */
record PekkoSettings(String executor, int throughput, String mailbox) {

    static final String DEFAULT_EXECUTOR = "fork-join";
    static final String DEFAULT_THROUGHPUT = "5";
    static final String DEFAULT_MAILBOX = "single-consumer";

    PekkoSettings {
        if (!executor.equals("fork-join") && !executor.equals("affinity")) {
            throw new IllegalArgumentException("pekkoExecutor must be fork-join or affinity, was " + executor);
        }
        if (!mailbox.equals("default") && !mailbox.equals("single-consumer")) {
            throw new IllegalArgumentException("pekkoMailbox must be default or single-consumer, was " + mailbox);
        }
        if (throughput < 1) {
            throw new IllegalArgumentException("pekkoThroughput must be at least 1, was " + throughput);
        }
    }

    /** The configuration layered over Pekko's reference.conf. */
    String hocon() {
        int cores = Runtime.getRuntime().availableProcessors();
        String executorBlock = executor.equals("fork-join")
                ? """
                  executor = "fork-join-executor"
                  fork-join-executor {
                    parallelism-min = %d
                    parallelism-factor = 1.0
                    parallelism-max = %d
                    task-peeking-mode = "FIFO"
                  }
                  """.formatted(cores, cores)
                : """
                  executor = "affinity-pool-executor"
                  affinity-pool-executor {
                    parallelism-min = %d
                    parallelism-factor = 1.0
                    parallelism-max = %d
                    task-queue-size = 65536
                    idle-cpu-level = 5
                  }
                  """.formatted(cores, cores);
        String mailboxType = mailbox.equals("default")
                ? "org.apache.pekko.dispatch.UnboundedMailbox"
                : "org.apache.pekko.dispatch.SingleConsumerOnlyUnboundedMailbox";
        return """
               pekko {
                 loglevel = "WARNING"
                 stdout-loglevel = "WARNING"
                 log-dead-letters = off
                 log-dead-letters-during-shutdown = off
                 actor {
                   default-mailbox.mailbox-type = "%s"
                   default-dispatcher {
                     throughput = %d
               %s    }
                 }
               }
               """.formatted(mailboxType, throughput, executorBlock.indent(6).stripTrailing() + "\n");
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "executor=%s, throughput=%d, mailbox=%s", executor, throughput, mailbox);
    }
}
