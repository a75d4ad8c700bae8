package io.troupe.benchmarks.inprocess;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.troupe.host.actor.ActorSystem;
import io.troupe.host.actor.FactoryResolver;
import io.troupe.host.dispatch.WorkerPool;
import io.troupe.host.timer.TimerThread;

/**
 * Troupe's runtime built from the host's own classes, wired as {@code HostActivator} wires them with
 * the distribution's defaults: one worker per available processor (the pool may grow to 4 × cores,
 * which only the monitor does, and the monitor is not running here), the timer thread, and
 * {@link ActorSystem#DEFAULT_THROUGHPUT} messages per turn. No OSGi framework: factories are passed
 * as objects.
 *
 * <p><b>Threading:</b> see {@link BenchRuntime}.
 */
final class TroupeBench implements BenchRuntime {

    private final int workerCount = Runtime.getRuntime().availableProcessors();
    private final int maxWorkers = Math.max(workerCount, 4 * Runtime.getRuntime().availableProcessors());
    private final WorkerPool workers =
            new WorkerPool(workerCount, maxWorkers, "troupe-worker", TroupeBench.class.getClassLoader());
    private final TimerThread timer = new TimerThread("troupe-timer");
    private final ActorSystem system =
            new ActorSystem(workers, timer, FactoryResolver.none(), ActorSystem.DEFAULT_THROUGHPUT);

    @Override
    public Workload create(WorkloadKind kind, int spawnCount) {
        return switch (kind) {
            case PING_PONG_1 -> TroupeWorkloads.pingPong(system, PingPongShape.ONE);
            case PING_PONG_4X100 -> TroupeWorkloads.pingPong(system, PingPongShape.FOUR_BY_HUNDRED);
            case FAN_OUT -> TroupeWorkloads.fanOut(system);
            case MAILBOX_4, MAILBOX_16 -> TroupeWorkloads.oneMailbox(system, kind.senders());
            case SPAWN_STOP -> TroupeWorkloads.spawnStop(system, spawnCount);
        };
    }

    @Override
    public void spawnIdle(int count) throws Exception {
        TroupeWorkloads.spawnIdle(system, count);
    }

    /** The settings every Troupe fork runs with, for the report. */
    static String describeSettings() {
        int cores = Runtime.getRuntime().availableProcessors();
        return "Troupe: io.troupe.host.actor.ActorSystem on a WorkerPool of " + cores + " workers (max "
                + Math.max(cores, 4 * cores) + ", as HostActivator: troupe.workers = available processors; no "
                + "monitor running), TimerThread, throughput "
                + ActorSystem.DEFAULT_THROUGHPUT + " messages per turn, default mailboxes (bounded, 10 000) except "
                + "the flooded receivers (" + WorkloadKind.FLOODED_MAILBOX_CAPACITY + ")";
    }

    @Override
    public void close() throws Exception {
        system.shutdown(Duration.ofSeconds(30));
        workers.shutdown(10, TimeUnit.SECONDS);
        timer.shutdown(10, TimeUnit.SECONDS);
    }
}
