package io.troupe.host.monitor;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.troupe.api.ActorInfo;
import io.troupe.api.monitor.HandlerStats;
import io.troupe.api.monitor.PoolStats;
import io.troupe.api.monitor.RuntimeSnapshot;
import io.troupe.api.monitor.RuntimeStats;
import io.troupe.api.monitor.ThreadStats;
import io.troupe.api.monitor.WorkerPoolStats;
import io.troupe.host.actor.ActorSystem;
import io.troupe.host.actor.RetiredCounts;
import io.troupe.host.dispatch.Worker;
import io.troupe.host.dispatch.WorkerPool;
import io.troupe.host.plugin.ActorPool;
import io.troupe.host.plugin.ActorPools;
import io.troupe.host.plugin.PoolSample;
import io.troupe.host.reactor.EventLoop;

/**
 * The host's {@link RuntimeStats} service: reads the worker and loop heartbeats, the actor registry,
 * the dead-letter count and the other parts' {@link HostCounts} (the logger's drops and queue, the
 * deployer's swaps and rollbacks) when asked, and adds the busy ratios of the
 * monitor's last complete window.
 *
 * <p>Handler statistics add up the top-level actors whose origin is {@code handler:NAME}, one per
 * tenant that used the handler.
 *
 * <p>Pool statistics list every live actor pool of a poolable handler, one per tenant that used it.
 *
 * <p>A worker's current turn is timed from the first monitor look that saw it (see
 * {@link StallDetector}), so its {@code busyMillis} is a lower bound with the monitor period as
 * resolution.
 *
 * <p><b>Threading:</b> {@link #snapshot()} from any thread; it reads heartbeats racily (each value
 * is consistent, two values may be a moment apart) and walks the registry, which is a concurrent map.
 * The monitor thread publishes through the volatile fields (immutable values only).
 */
final class HostRuntimeStats implements RuntimeStats {

    private static final String HANDLER_ORIGIN = RetiredCounts.HANDLER_ORIGIN;

    private final ActorSystem system;
    private final WorkerPool pool;
    private final Supplier<List<EventLoop>> loops;
    private final HostCounts counts;
    private final long turnThresholdNanos;
    private final long loopThresholdNanos;
    private final Clock clock;
    private final ActorPools pools;
    private volatile BusySampler.Sample sample = BusySampler.Sample.EMPTY;
    private volatile Map<Worker, StallDetector.TurnSeen> turns = Map.of();
    private volatile long stalls;

    HostRuntimeStats(ActorSystem system, WorkerPool pool, Supplier<List<EventLoop>> loops, HostCounts counts,
            MonitorSettings settings, Clock clock, ActorPools pools) {
        this.system = Objects.requireNonNull(system, "system");
        this.pool = Objects.requireNonNull(pool, "pool");
        this.loops = Objects.requireNonNull(loops, "loops");
        this.counts = Objects.requireNonNull(counts, "counts");
        this.turnThresholdNanos = settings.stallThreshold().toNanos();
        this.loopThresholdNanos = settings.loopStallThreshold().toNanos();
        this.clock = clock;
        this.pools = Objects.requireNonNull(pools, "pools");
    }

    /** Monitor thread: the ratios of the window that just ended. */
    void publish(BusySampler.Sample next) {
        sample = next;
    }

    /** Monitor thread: the stalls reported so far, and the turns running at the last look. */
    void observed(long stallCount, Map<Worker, StallDetector.TurnSeen> turnsSeen) {
        stalls = stallCount;
        turns = turnsSeen;
    }

    @Override
    public RuntimeSnapshot snapshot() {
        long now = System.nanoTime();
        BusySampler.Sample ratios = sample;
        List<ActorInfo> actors = system.snapshot();
        long backlog = 0;
        for (ActorInfo actor : actors) {
            backlog += actor.mailboxDepth();
        }
        return new RuntimeSnapshot(clock.instant(), workers(now, ratios), loops(now, ratios), ratios.loopsRatio(),
                actors.size(), backlog, system.deadLetters().count(), counts.logRecordsDropped().getAsLong(), stalls,
                handlers(actors, system.retired().byHandler()), pools(), system.tenantLoads(group -> ratios.shareOf(group.tenant())),
                counts.swaps().swaps(), counts.swaps().rollbacks(), counts.logQueueBytes().getAsLong());
    }

    private List<PoolStats> pools() {
        List<PoolStats> result = new ArrayList<>();
        for (ActorPool pool : pools.pools()) {
            PoolSample sample = pool.sample();
            result.add(new PoolStats(pool.handler(), pool.tenant(), sample.size(), pool.min(), pool.max(),
                    sample.backlog(), sample.stalled()));
        }
        result.sort(Comparator.comparing(PoolStats::handler).thenComparing(PoolStats::tenant));
        return result;
    }

    private WorkerPoolStats workers(long now, BusySampler.Sample ratios) {
        List<ThreadStats> threads = new ArrayList<>();
        Map<Worker, StallDetector.TurnSeen> seen = turns;
        int busy = 0;
        int stalled = 0;
        for (Worker worker : pool.workers()) {
            if (worker.isRetiring()) {
                continue;
            }
            long turn = worker.currentTurn();
            StallDetector.TurnSeen seenTurn = seen.get(worker);
            // a turn the monitor has not seen yet has just begun: report it as 0 ms
            long running = turn != 0 && seenTurn != null && seenTurn.turn() == turn
                    ? Math.max(0, now - seenTurn.firstSeenNanos()) : 0;
            boolean isStalled = running >= turnThresholdNanos;
            busy += turn == 0 ? 0 : 1;
            stalled += isStalled ? 1 : 0;
            threads.add(new ThreadStats(worker.getName(), ratios.ratioOf(worker.getName()),
                    TimeUnit.NANOSECONDS.toMillis(running), isStalled, worker.isAlive()));
        }
        return new WorkerPoolStats(threads.size(), pool.minSize(), pool.maxSize(), busy, stalled, pool.queued(),
                ratios.workersRatio(), threads);
    }

    private List<ThreadStats> loops(long now, BusySampler.Sample ratios) {
        List<ThreadStats> threads = new ArrayList<>();
        for (EventLoop loop : loops.get()) {
            long since = loop.busySinceNanos();
            long away = since == 0 ? 0 : Math.max(0, now - since);
            threads.add(new ThreadStats(loop.name(), ratios.ratioOf(loop.name()), TimeUnit.NANOSECONDS.toMillis(away),
                    since != 0 && away >= loopThresholdNanos, loop.isAlive()));
        }
        return threads;
    }

    private static List<HandlerStats> handlers(List<ActorInfo> actors, Map<String, long[]> retired) {
        Map<String, long[]> totals = new TreeMap<>(); // actors, depth, processed, failures
        retired.forEach((name, counts) -> {
            long[] sums = totals.computeIfAbsent(name, any -> new long[4]);
            sums[2] += counts[0];
            sums[3] += counts[1];
        });
        for (ActorInfo actor : actors) {
            if (actor.origin().startsWith(HANDLER_ORIGIN)) {
                long[] sums = totals.computeIfAbsent(actor.origin().substring(HANDLER_ORIGIN.length()),
                        name -> new long[4]);
                sums[0]++;
                sums[1] += actor.mailboxDepth();
                sums[2] += actor.processed();
                sums[3] += actor.failures();
            }
        }
        List<HandlerStats> handlers = new ArrayList<>(totals.size());
        totals.forEach((name, sums) -> handlers.add(new HandlerStats(name, (int) sums[0], sums[1], sums[2], sums[3])));
        return handlers;
    }
}
