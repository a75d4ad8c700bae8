package io.troupe.host.core;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.TroupeRuntime;
import io.troupe.api.monitor.RuntimeStats;
import io.troupe.host.actor.ActorSystem;
import io.troupe.host.actor.TurnRecordContext;
import io.troupe.host.dispatch.WorkerPool;
import io.troupe.host.deploy.SwapCounts;
import io.troupe.host.log.LoggerUse;
import io.troupe.host.log.TroupeLogging;
import io.troupe.host.monitor.ActorPoolSettings;
import io.troupe.host.monitor.HostCounts;
import io.troupe.host.monitor.MonitorListener;
import io.troupe.host.monitor.MonitorSettings;
import io.troupe.host.monitor.RuntimeMonitor;
import io.troupe.host.plugin.ActorDirectory;
import io.troupe.host.reactor.EventLoop;
import io.troupe.host.timer.TimerThread;

/**
 * The runtime itself, without OSGi: the worker pool, the timer thread, the actor system over an
 * {@link ActorDirectory}, the monitor, the logger's use, and the order in which they start and stop. The host
 * bundle ({@code HostActivator}, over the whiteboard of plugin services, with the reactor and the OSGi
 * services around it) and the embedded runtime ({@code io.troupe.runtime.Troupe}, over handlers registered in
 * code) both build on it, so there is one runtime, not two.
 *
 * <pre>
 *   start   logger use (when SLF4J is bound to Troupe's provider)
 *           ─ WorkerPool (prefix-worker-N) ─ TimerThread (prefix-timer) ─ ActorSystem over the directory
 *           ─ record context (the actor and tenant of a turn) ─ directory.open ─ HostRuntime
 *   startMonitor (prefix-monitor) / stopMonitor        any number of times while it runs
 *   close   monitor ─ directory.close (its actors stop) ─ ActorSystem.shutdown (every actor, children
 *           first, postStop runs; then {@link TroupeRuntime#whenTerminated()} completes) ─ workers ─ timer
 *           ─ "Troupe runtime stopped" ─ the caller's last step ─ logger use (the last use stops the logger)
 * </pre>
 *
 * Each wait of {@link #close} lasts at most {@link CoreSettings#shutdownTimeout()}; a part that does not stop
 * in time is logged and the next one is stopped anyway.
 *
 * <p><b>Threading:</b> {@link #start}, {@link #startMonitor}, {@link #stopMonitor}, {@link #reconfigure} and
 * {@link #close} from threads that are not the runtime's own (the host's framework and ConfigAdmin threads,
 * an application's), serialised by a lock; {@link #runtime()} and {@link #system()} from any thread.
 */
public final class RuntimeCore {

    private static final Logger LOG = LoggerFactory.getLogger(RuntimeCore.class);

    private final CoreSettings settings;
    private final ActorDirectory directory;
    /** Null when SLF4J is bound to another provider: Troupe then only logs through it. */
    private final LoggerUse logging;
    private final WorkerPool workers;
    private final TimerThread timer;
    private final ActorSystem system;
    private final HostRuntime runtime;
    private final Object lifecycle = new Object();
    /** Guarded by {@link #lifecycle}; null while no monitor runs. */
    private RuntimeMonitor monitor;
    /** Guarded by {@link #lifecycle}. */
    private boolean closed;

    private RuntimeCore(CoreSettings settings, ActorDirectory directory, ClassLoader workerLoader) {
        this.settings = settings;
        this.directory = directory;
        this.logging = TroupeLogging.bound().map(TroupeLogging::use).orElse(null);
        WorkerPool pool = null;
        TimerThread clock = null;
        try {
            pool = new WorkerPool(settings.workers(), settings.maxWorkers(), settings.workerPrefix(), workerLoader,
                    settings.workerSpin());
            clock = new TimerThread(settings.timerThreadName());
            this.workers = pool;
            this.timer = clock;
            this.system = new ActorSystem(workers, timer, directory, settings.throughput());
            if (logging != null) {
                logging.recordContext(new TurnRecordContext(system));
            }
            directory.open(system, timer);
            this.runtime = new HostRuntime(system, directory);
        } catch (RuntimeException | Error e) {
            abandon(pool, clock);
            throw e;
        }
    }

    /**
     * Starts the workers and the timer, and the actor system over {@code directory}, which is opened on it.
     *
     * @param workerLoader the context class loader the workers carry between turns
     */
    public static RuntimeCore start(CoreSettings settings, ActorDirectory directory, ClassLoader workerLoader) {
        return new RuntimeCore(Objects.requireNonNull(settings, "settings"),
                Objects.requireNonNull(directory, "directory"), workerLoader);
    }

    /** The {@link TroupeRuntime} over this core: the host's service, the embedded runtime's delegate. */
    public HostRuntime runtime() {
        return runtime;
    }

    /** The actor system, for the parts of the host that work on actors (the deployer's swaps). */
    public ActorSystem system() {
        return system;
    }

    public CoreSettings settings() {
        return settings;
    }

    /**
     * Starts the monitor thread ({@link CoreSettings#monitorThreadName()}), which watches the workers and the
     * IO loops {@code loops} gives, resizes the worker pool and the directory's actor pools, and measures.
     *
     * @return its statistics
     * @throws IllegalStateException when a monitor runs already, or the core is closed
     */
    public RuntimeStats startMonitor(MonitorSettings monitorSettings, ActorPoolSettings poolSettings,
                                     Supplier<List<EventLoop>> loops) {
        return startMonitor(monitorSettings, poolSettings, loops, new SwapCounts());
    }

    /**
     * Starts the monitor as {@link #startMonitor(MonitorSettings, ActorPoolSettings, Supplier)} does, its
     * statistics reporting the plugin swaps and rollbacks {@code swaps} counts (the host's deploy folder).
     */
    public RuntimeStats startMonitor(MonitorSettings monitorSettings, ActorPoolSettings poolSettings,
                                     Supplier<List<EventLoop>> loops, SwapCounts swaps) {
        synchronized (lifecycle) {
            if (closed) {
                throw new IllegalStateException("the runtime is closed");
            }
            if (monitor != null) {
                throw new IllegalStateException("the monitor runs already");
            }
            monitor = new RuntimeMonitor(monitorSettings, workers, system, loops,
                    new HostCounts(this::droppedLogRecords, this::queuedLogBytes, swaps), MonitorListener.NONE,
                    directory.pools(), poolSettings);
            monitor.start(settings.monitorThreadName());
            return monitor.stats();
        }
    }

    /**
     * Stops the monitor, if one runs, and waits for its thread; the pools keep their sizes.
     *
     * @return whether its thread ended within the shutdown timeout
     */
    public boolean stopMonitor() throws InterruptedException {
        synchronized (lifecycle) {
            if (monitor == null) {
                return true;
            }
            boolean ended = monitor.stop(settings.shutdownTimeout());
            monitor = null;
            if (!ended) {
                LOG.warn("The monitor thread did not end within {}", settings.shutdownTimeout());
            }
            return ended;
        }
    }

    /** New worker bounds and spin, in place; see {@link WorkerPool#reconfigure}. */
    public void reconfigure(int minWorkers, int maxWorkers, Duration spin) {
        workers.reconfigure(minWorkers, maxWorkers, spin);
    }

    /** Records the logger dropped at its buffer cap; 0 when SLF4J is bound to another provider. */
    public long droppedLogRecords() {
        return logging == null ? 0 : logging.logging().droppedRecords();
    }

    /** Bytes the logger's buffer holds for records not yet written; 0 when SLF4J is bound to another provider. */
    public long queuedLogBytes() {
        return logging == null ? 0 : logging.logging().queuedBytes();
    }

    /**
     * Stops everything, in the order of the class comment; idempotent (a second call returns at once). An
     * interrupt cuts the current wait short; the parts after it are stopped all the same and the interrupt
     * is kept.
     *
     * @param lastStep runs after the runtime stopped and before the logger use closes (the host closes its
     *                 forwarding of the OSGi log there)
     * @return whether every part stopped within its timeout
     * @throws IllegalStateException when called on one of this runtime's workers, that is from an actor's
     *         turn: the runtime would wait for that very turn to end
     */
    public boolean close(Runnable lastStep) {
        requireOutside();
        synchronized (lifecycle) {
            if (closed) {
                return true;
            }
            closed = true;
        }
        Duration timeout = settings.shutdownTimeout();
        boolean interrupted = false;
        boolean inTime = true;
        try {
            inTime &= stopMonitor();
        } catch (InterruptedException e) {
            interrupted = true;
            inTime = false;
        }
        directory.close();
        try {
            if (!system.shutdown(timeout)) {
                LOG.warn("Actors still running {} after shutdown began; stopping the workers anyway", timeout);
                inTime = false;
            }
        } catch (InterruptedException e) {
            interrupted = true;
            inTime = false;
        }
        try {
            if (!workers.shutdown(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn("Some worker threads did not end within {}", timeout);
                inTime = false;
            }
        } catch (InterruptedException e) {
            interrupted = true;
            inTime = false;
        }
        try {
            timer.shutdown(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            interrupted = true;
            inTime = false;
        }
        LOG.info("Troupe runtime stopped");
        try {
            lastStep.run();
        } finally {
            if (logging != null) {
                logging.close();
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        return inTime;
    }

    /**
     * Checks that the calling thread is not one of this runtime's workers, from which {@link #close} would wait
     * for the caller's own turn.
     *
     * @throws IllegalStateException on one of its workers
     */
    public void requireOutside() {
        if (workers.workers().contains(Thread.currentThread())) {
            throw new IllegalStateException("a Troupe runtime cannot be closed from one of its own actors: close()"
                    + " waits for every actor's turn to end, this one's too; close it from another thread");
        }
    }

    /** A start that failed half-way: the threads already started end. */
    private void abandon(WorkerPool pool, TimerThread clock) {
        try {
            if (pool != null) {
                pool.shutdown(settings.shutdownTimeout().toMillis(), TimeUnit.MILLISECONDS);
            }
            if (clock != null) {
                clock.shutdown(settings.shutdownTimeout().toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (logging != null) {
                logging.close();
            }
        }
    }
}
