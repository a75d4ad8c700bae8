package io.troupe.benchmarks.inprocess;

import java.util.concurrent.TimeUnit;

import org.apache.pekko.actor.ActorSystem;

import com.typesafe.config.ConfigFactory;

import scala.concurrent.Await;
import scala.concurrent.duration.Duration;

/**
 * Apache Pekko (classic actors) with the dispatcher configuration of {@link PekkoSettings}.
 *
 * <p><b>Threading:</b> see {@link BenchRuntime}.
 */
final class PekkoBench implements BenchRuntime {

    private final ActorSystem system;

    PekkoBench(PekkoSettings settings) {
        this.system = ActorSystem.create("bench",
                ConfigFactory.parseString(settings.hocon()).withFallback(ConfigFactory.load()));
    }

    @Override
    public Workload create(WorkloadKind kind, int spawnCount) {
        return switch (kind) {
            case PING_PONG_1 -> PekkoWorkloads.pingPong(system, PingPongShape.ONE);
            case PING_PONG_4X100 -> PekkoWorkloads.pingPong(system, PingPongShape.FOUR_BY_HUNDRED);
            case FAN_OUT -> PekkoWorkloads.fanOut(system);
            case MAILBOX_4, MAILBOX_16 -> PekkoWorkloads.oneMailbox(system, kind.senders());
            case SPAWN_STOP -> PekkoWorkloads.spawnStop(system, spawnCount);
            case RING -> PekkoSavinaWorkloads.ring(system);
            case CHAMENEOS -> PekkoSavinaWorkloads.chameneos(system);
            case BIG -> PekkoSavinaWorkloads.big(system);
            case FORK_JOIN -> PekkoSavinaWorkloads.forkJoin(system);
        };
    }

    @Override
    public void spawnIdle(int count) throws Exception {
        PekkoWorkloads.spawnIdle(system, count);
    }

    /** The settings a Pekko fork runs with, for the report. */
    static String describeSettings(PekkoSettings settings) {
        return "Pekko " + org.apache.pekko.Version.current() + " classic actors (" + settings
                + "), configuration layered over reference.conf:\n" + settings.hocon();
    }

    @Override
    public void close() throws Exception {
        system.terminate();
        Await.ready(system.whenTerminated(), Duration.create(30, TimeUnit.SECONDS));
    }
}
