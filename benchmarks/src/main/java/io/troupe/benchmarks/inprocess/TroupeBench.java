package io.troupe.benchmarks.inprocess;

import java.time.Duration;

import io.troupe.runtime.Troupe;

/**
 * Troupe's embedded runtime ({@link Troupe}), built with the distribution's defaults as the host bundle runs
 * them: one worker per available processor (the pool may grow to 4 × cores, which only the monitor does, and
 * the monitor is off here, so that no thread but the workers and the timer runs beside the workload), the
 * timer thread, 64 messages per turn and the default worker spin. No OSGi framework: factories are passed as
 * objects.
 *
 * <p><b>Threading:</b> see {@link BenchRuntime}.
 */
final class TroupeBench implements BenchRuntime {

    private final Troupe troupe = Troupe.builder()
            .monitor(false)
            .shutdownTimeout(Duration.ofSeconds(30)) // a million idle actors stop at the end of the heap fork
            .build();

    @Override
    public Workload create(WorkloadKind kind, int spawnCount) {
        return switch (kind) {
            case PING_PONG_1 -> TroupeWorkloads.pingPong(troupe, PingPongShape.ONE);
            case PING_PONG_4X100 -> TroupeWorkloads.pingPong(troupe, PingPongShape.FOUR_BY_HUNDRED);
            case FAN_OUT -> TroupeWorkloads.fanOut(troupe);
            case MAILBOX_4, MAILBOX_16 -> TroupeWorkloads.oneMailbox(troupe, kind.senders());
            case SPAWN_STOP -> TroupeWorkloads.spawnStop(troupe, spawnCount);
            case RING -> TroupeSavinaWorkloads.ring(troupe);
            case CHAMENEOS -> TroupeSavinaWorkloads.chameneos(troupe);
            case BIG -> TroupeSavinaWorkloads.big(troupe);
            case FORK_JOIN -> TroupeSavinaWorkloads.forkJoin(troupe);
        };
    }

    @Override
    public void spawnIdle(int count) throws Exception {
        TroupeWorkloads.spawnIdle(troupe, count);
    }

    /** The settings every Troupe fork runs with, for the report. */
    static String describeSettings() {
        int cores = Runtime.getRuntime().availableProcessors();
        return "Troupe: the embedded runtime io.troupe.runtime.Troupe with the host's defaults, a WorkerPool of "
                + cores + " workers (max " + Math.max(cores, 4 * cores) + ", as HostActivator: troupe.workers ="
                + " available processors; monitor off), its timer thread, throughput 64 messages per turn, default"
                + " mailboxes (bounded, 10 000) except the flooded receivers ("
                + WorkloadKind.FLOODED_MAILBOX_CAPACITY + ")";
    }

    @Override
    public void close() {
        troupe.close();
    }
}
