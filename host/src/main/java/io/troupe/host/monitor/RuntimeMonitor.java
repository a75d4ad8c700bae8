package io.troupe.host.monitor;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.monitor.RuntimeSnapshot;
import io.troupe.api.monitor.RuntimeStats;
import io.troupe.host.actor.ActorSystem;
import io.troupe.host.dispatch.Worker;
import io.troupe.host.dispatch.WorkerPool;
import io.troupe.host.plugin.ActorPools;
import io.troupe.host.reactor.EventLoop;
import io.troupe.host.supervise.LoopFailures;

/**
 * The {@code troupe-monitor} thread (see {@code docs/architecture.md}): every period it reads the heartbeats
 * of the workers and the IO loops, reports stalls once each, resizes the worker pool, measures busy
 * ratios and, every summary interval, writes one INFO line about the runtime.
 *
 * <pre>
 *   every period (250 ms):
 *     StallDetector   workers: a turn older than stallMillis  ──► WARN with actor, message, stack (once)
 *                     loops:   away from select &gt; loopStallMillis ──► WARN with stack (once)
 *     PoolSizer       stalled workers + queued actors ──► WorkerPool.addWorkers
 *                     surplus workers idle for idleSeconds ──► WorkerPool.retireIdle
 *     ActorPoolWatch  per actor pool: backlog above highWater for growMillis ──► grow by one
 *                     idle for troupe.pool.idleSeconds ──► shrink by one (cooldown between changes)
 *     BusySampler     every second: busy ratio per worker and loop ──► HostRuntimeStats
 *   every summarySeconds (60):  "Runtime: workers ..., loops ..., actors ..." (INFO)
 * </pre>
 *
 * It is deliberately not a {@code RuntimeThread}: it may take thread stacks and write to the log, and
 * it must keep running when every runtime thread is stuck. A tick that throws is handled by {@link
 * LoopFailures}: logged, and the next tick comes (too many within a window, or a fatal error, end the
 * process).
 *
 * <p><b>Threading:</b> {@link #start} and {@link #stop} from one controlling thread (the host
 * activator); {@link #stats()} from any thread. {@link #tick} runs on the monitor thread, or on a
 * test's thread when the monitor is not started; never both.
 */
public final class RuntimeMonitor {

    static final String THREAD_NAME = "troupe-monitor";
    private static final Logger LOG = LoggerFactory.getLogger(RuntimeMonitor.class);

    private final MonitorSettings settings;
    private final WorkerPool pool;
    private final Supplier<List<EventLoop>> loops;
    private final MonitorListener events;
    private final StallDetector stalls;
    private final PoolSizer sizer;
    private final ActorPoolWatch actorPools;
    private final ActorPoolSettings poolSettings;
    private final BusySampler sampler;
    private final HostRuntimeStats stats;
    private final MonitorThread thread = new MonitorThread();
    private final long summaryNanos;

    // Confined to the ticking thread.
    private long lastSummary;
    private long summarisedDeadLetters;
    private long summarisedDrops;
    private long summarisedStalls;

    /**
     * @param loops    the loops to watch, asked at every tick (empty while there is no reactor)
     * @param logDrops the logger's count of dropped records
     * @param listener hears stalls and resizes besides the log ({@link MonitorListener#NONE} for none)
     */
    public RuntimeMonitor(MonitorSettings settings, WorkerPool pool, ActorSystem system,
            Supplier<List<EventLoop>> loops, LongSupplier logDrops, MonitorListener listener) {
        this(settings, pool, system, loops, HostCounts.logDropsOnly(logDrops), listener, new ActorPools(),
                ActorPoolSettings.defaults());
    }

    /**
     * A monitor that also sizes the actor pools of poolable handlers.
     *
     * @param pools        the live actor pools, looked at every period
     * @param poolSettings when they grow and shrink
     */
    public RuntimeMonitor(MonitorSettings settings, WorkerPool pool, ActorSystem system,
            Supplier<List<EventLoop>> loops, HostCounts counts, MonitorListener listener, ActorPools pools,
            ActorPoolSettings poolSettings) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.pool = Objects.requireNonNull(pool, "pool");
        this.loops = Objects.requireNonNull(loops, "loops");
        this.events = new LoggingListener(Objects.requireNonNull(listener, "listener"));
        this.stalls = new StallDetector(system, settings, events);
        this.sizer = new PoolSizer(pool.minSize(), pool.maxSize(), settings.idlePeriod());
        this.sampler = new BusySampler(settings.statsWindow().toNanos());
        this.poolSettings = Objects.requireNonNull(poolSettings, "poolSettings");
        this.actorPools = new ActorPoolWatch(Objects.requireNonNull(pools, "pools"),
                Objects.requireNonNull(poolSettings, "poolSettings"), events);
        this.stats = new HostRuntimeStats(system, pool, loops, counts, settings, Clock.systemUTC(), pools);
        this.summaryNanos = settings.summaryInterval().toNanos();
        this.lastSummary = System.nanoTime();
    }

    /** The statistics service backed by this monitor's measurements. */
    public RuntimeStats stats() {
        return stats;
    }

    /** Starts the monitor thread, named {@value #THREAD_NAME}. */
    public void start() {
        start(THREAD_NAME);
    }

    /** Starts the monitor thread under {@code threadName} (an embedded runtime's prefix, then {@code -monitor}). */
    public void start(String threadName) {
        thread.setName(threadName);
        thread.start();
        LOG.info("Monitor started: stalls after {} (IO loops {}), workers {}..{},"
                + " extra workers retire after {} unneeded, summary {}; actor pools grow after {} above {} waiting"
                + " per member and shrink after {} idle, {} apart", MonitorSettings.text(settings.stallThreshold()),
                MonitorSettings.text(settings.loopStallThreshold()), pool.minSize(), pool.maxSize(),
                MonitorSettings.text(settings.idlePeriod()), summaryNanos == 0 ? "off"
                        : "every " + MonitorSettings.text(settings.summaryInterval()),
                MonitorSettings.text(poolSettings.growAfter()), poolSettings.highWater(),
                MonitorSettings.text(poolSettings.idlePeriod()), MonitorSettings.text(poolSettings.cooldown()));
    }

    /**
     * Stops the monitor thread and waits up to {@code timeout} for it; the pool keeps its current size.
     *
     * @return whether the thread ended in time (or never started)
     */
    public boolean stop(Duration timeout) throws InterruptedException {
        if (!thread.isAlive()) {
            return true;
        }
        thread.running = false;
        LockSupport.unpark(thread);
        TimeUnit.NANOSECONDS.timedJoin(thread, Math.max(0, timeout.toNanos()));
        return !thread.isAlive();
    }

    /** One look at the runtime, as of {@code now} ({@link System#nanoTime()} scale). */
    void tick(long now) {
        List<Worker> workers = pool.workers();
        List<EventLoop> watchedLoops = loops.get();
        StallDetector.WorkerCensus census = stalls.checkWorkers(now, workers);
        stalls.checkLoops(now, watchedLoops);
        stats.observed(stalls.stalls(), stalls.turnsSeen());
        resize(now, census);
        actorPools.check(now, stalls.stalledActors());
        BusySampler.Sample sample = sampler.sample(now, pool.workers(), watchedLoops, pool.groups());
        if (sample != null) {
            stats.publish(sample);
        }
        if (summaryNanos > 0 && now - lastSummary >= summaryNanos) {
            lastSummary = now;
            events.summarised(summary(stats.snapshot(), sampler.takeAverages()));
        }
    }

    private void resize(long now, StallDetector.WorkerCensus census) {
        int reserve = pool.ensureReserve();
        if (reserve > 0) {
            events.resized(new PoolChange(pool.size() - reserve, pool.size(),
                    "several tenants run: one worker is kept in reserve, so that no tenant holds every worker"));
        }
        int size = pool.size();
        PoolSizer.Decision decision = sizer.decide(now, size, census.busy(), census.stalled(), pool.queued());
        if (decision.isNone()) {
            return;
        }
        int changed = decision.delta() > 0 ? pool.addWorkers(decision.delta()) : -pool.retireIdle(-decision.delta());
        if (changed != 0) {
            events.resized(new PoolChange(size, size + changed, decision.reason()));
        }
    }

    private String summary(RuntimeSnapshot snapshot, BusySampler.Averages averages) {
        long deadLetters = snapshot.deadLetters();
        long drops = snapshot.logRecordsDropped();
        long stallCount = snapshot.stalls();
        String line = String.format("Runtime: workers %d (min %d, max %d) busy %d%%, queued %d, stalled %d;"
                        + " loops %d busy %d%%; actors %d, mailbox backlog %d; dead letters %d (+%d);"
                        + " log records dropped %d (+%d); stalls %d (+%d)",
                snapshot.workers().current(), snapshot.workers().min(), snapshot.workers().max(),
                percent(averages.workersRatio()), snapshot.workers().queued(), snapshot.workers().stalled(),
                snapshot.loops().size(), percent(averages.loopsRatio()), snapshot.actors(), snapshot.mailboxBacklog(),
                deadLetters, deadLetters - summarisedDeadLetters, drops, drops - summarisedDrops,
                stallCount, stallCount - summarisedStalls);
        summarisedDeadLetters = deadLetters;
        summarisedDrops = drops;
        summarisedStalls = stallCount;
        return line;
    }

    private static long percent(double ratio) {
        return Math.round(ratio * 100);
    }

    /** Logs every event, then hands it to the listener. */
    private static final class LoggingListener implements MonitorListener {

        private final MonitorListener next;

        LoggingListener(MonitorListener next) {
            this.next = next;
        }

        @Override
        public void stalled(Stall stall) {
            LOG.warn(stall.describe());
            forward(() -> next.stalled(stall));
        }

        @Override
        public void recovered(Stall stall) {
            LOG.info("{} {} is {} again (the stall reported after {} ms is over)",
                    stall.kind() == Stall.Kind.TURN ? "Worker" : "IO loop", stall.thread(),
                    stall.kind() == Stall.Kind.TURN ? "between turns or on a new turn" : "back in select",
                    stall.elapsedMillis());
            forward(() -> next.recovered(stall));
        }

        @Override
        public void resized(PoolChange change) {
            LOG.info(change.toString());
            forward(() -> next.resized(change));
        }

        @Override
        public void poolResized(ActorPoolChange change) {
            LOG.info(change.toString());
            forward(() -> next.poolResized(change));
        }

        @Override
        public void summarised(String line) {
            LOG.info(line);
            forward(() -> next.summarised(line));
        }

        private static void forward(Runnable call) {
            try {
                call.run();
            } catch (RuntimeException e) {
                LOG.warn("A monitor listener failed", e);
            }
        }
    }

    /** {@value #THREAD_NAME} (or the name given to {@link #start(String)}): ticks every period until stopped. */
    private final class MonitorThread extends Thread {

        volatile boolean running = true;

        MonitorThread() {
            super(THREAD_NAME);
            setDaemon(true);
            setContextClassLoader(null); // pins no bundle's class loader
        }

        @Override
        public void run() {
            LoopFailures failures = new LoopFailures("Monitor " + getName());
            long period = settings.period().toNanos();
            long next = System.nanoTime() + period;
            while (running) {
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(this, wait);
                    continue; // re-check the flag and the time: parks may end early
                }
                long now = System.nanoTime();
                try {
                    tick(now);
                } catch (Throwable t) {
                    failures.failed("looking at the runtime (a tick)", t); // returns, or throws a fatal error
                }
                next += period;
                if (next - now <= 0) {
                    next = now + period; // after a long pause, do not catch up in a burst
                }
            }
        }
    }
}
