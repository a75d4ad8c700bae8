package io.troupe.host;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceRegistration;
import org.osgi.framework.namespace.PackageNamespace;
import org.osgi.framework.wiring.BundleWiring;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.TroupeRuntime;
import io.troupe.api.monitor.RuntimeStats;
import io.troupe.api.net.Reactor;
import io.troupe.host.actor.ActorSystem;
import io.troupe.host.actor.TurnRecordContext;
import io.troupe.host.deploy.DeployWatcher;
import io.troupe.host.dispatch.WorkerPool;
import io.troupe.host.log.OsgiLogForwarder;
import io.troupe.host.log.RecordContext;
import io.troupe.host.log.TroupeLogging;
import io.troupe.host.monitor.ActorPoolSettings;
import io.troupe.host.monitor.MonitorListener;
import io.troupe.host.monitor.MonitorSettings;
import io.troupe.host.monitor.RuntimeMonitor;
import io.troupe.host.plugin.PluginDirectory;
import io.troupe.host.reactor.EventLoop;
import io.troupe.host.reactor.NioReactor;
import io.troupe.host.timer.TimerThread;

/**
 * Wiring only: builds the runtime when the host bundle starts, registers it as the
 * {@link TroupeRuntime} service, the reactor as the {@link Reactor} service and the monitor's
 * measurements as the {@link RuntimeStats} service, and takes them down in reverse order when the
 * bundle stops (the monitor first, so that it resizes nothing that is stopping; then the reactor, so
 * no connection feeds a stopping runtime).
 *
 * <p>Framework properties: {@code troupe.workers} (worker threads, default: available processors),
 * {@code troupe.workers.max} (the monitor may grow the pool to this many while turns are stalled,
 * default 4 × available processors), {@code troupe.workers.idleSeconds} (extra workers retire after
 * being unneeded this long, 30), {@code troupe.monitor.stallMillis} (2000),
 * {@code troupe.monitor.loopStallMillis} (100), {@code troupe.monitor.periodMillis} (250),
 * {@code troupe.monitor.summarySeconds} (60, 0 = no summary line; see {@link MonitorSettings}),
 * {@code troupe.throughput} (messages per actor turn, default {@value ActorSystem#DEFAULT_THROUGHPUT}),
 * {@code troupe.ioThreads} (reactor IO loops, default: available processors),
 * {@code troupe.workers.spinMicros} (how long a worker out of tasks polls, yielding, before it parks,
 * 50; 0 = never), {@code troupe.io.spinMicros} (how long an IO loop polls for answers after reading,
 * yielding, before it selects, 30; 0 = never),
 * {@code troupe.deploy.dir} (the plugin folder to watch; none when unset),
 * {@code troupe.deploy.pollMillis} (500), {@code troupe.deploy.startLevel} (80),
 * {@code troupe.swap.graceSeconds} (how long a swapped plugin's actors wait for its next revision, 10),
 * {@code troupe.pool.highWater} (1), {@code troupe.pool.growMillis} (1000),
 * {@code troupe.pool.idleSeconds} (30) and {@code troupe.pool.cooldownMillis} (2000) for the actor
 * pools of poolable handlers (see {@link ActorPoolSettings}).
 *
 * <p><b>Threading:</b> called by the framework, start and stop never concurrently.
 */
public final class HostActivator implements BundleActivator {

    private static final Logger LOG = LoggerFactory.getLogger(HostActivator.class);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);

    private TroupeLogging logging;
    /** Null without a wired org.osgi.service.log package: then the class is never loaded. */
    private OsgiLogForwarder osgiLog;
    private DeployWatcher deployer;
    private WorkerPool workers;
    private TimerThread timer;
    private PluginDirectory plugins;
    private ActorSystem system;
    private ServiceRegistration<TroupeRuntime> registration;
    private NioReactor reactor;
    private ServiceRegistration<Reactor> reactorRegistration;
    private RuntimeMonitor monitor;
    private ServiceRegistration<RuntimeStats> statsRegistration;

    @Override
    public void start(BundleContext context) throws IOException, InterruptedException {
        logging = TroupeLogging.of(LoggerFactory.getILoggerFactory());
        logging.start();
        if (importsPackage(context, OsgiLogForwarder.PACKAGE)) {
            osgiLog = OsgiLogForwarder.open(context, LoggerFactory.getILoggerFactory());
        } else {
            LOG.info("No OSGi log service package is wired to the host; only SLF4J records reach the log");
        }
        int workerCount = intProperty(context, "troupe.workers", Runtime.getRuntime().availableProcessors());
        int throughput = intProperty(context, "troupe.throughput", ActorSystem.DEFAULT_THROUGHPUT);
        int cores = Runtime.getRuntime().availableProcessors();
        int maxWorkers = intProperty(context, "troupe.workers.max", Math.max(workerCount, 4 * cores));
        if (maxWorkers < workerCount) {
            LOG.warn("troupe.workers.max={} is below troupe.workers={}; the pool keeps {} workers", maxWorkers,
                    workerCount, workerCount);
            maxWorkers = workerCount;
        }
        workers = new WorkerPool(workerCount, maxWorkers, "troupe-worker", HostActivator.class.getClassLoader(),
                microsProperty(context, "troupe.workers.spinMicros", WorkerPool.DEFAULT_SPIN));
        timer = new TimerThread("troupe-timer");
        plugins = new PluginDirectory(context);
        system = new ActorSystem(workers, timer, plugins, throughput);
        logging.setRecordContext(new TurnRecordContext(system));
        int graceSeconds = intProperty(context, "troupe.swap.graceSeconds", 10);
        plugins.open(system, timer, Duration.ofSeconds(graceSeconds));
        String deployDir = context.getProperty("troupe.deploy.dir");
        if (deployDir != null && !deployDir.isBlank()) {
            deployer = new DeployWatcher(context, Path.of(deployDir), plugins,
                    Duration.ofMillis(intProperty(context, "troupe.deploy.pollMillis", 500)),
                    intProperty(context, "troupe.deploy.startLevel", 80));
            deployer.start();
        }
        Dictionary<String, Object> properties = new Hashtable<>();
        properties.put(Constants.SERVICE_DESCRIPTION, "Troupe actor runtime");
        registration = context.registerService(TroupeRuntime.class, new HostRuntime(system, plugins), properties);
        LOG.info("Troupe runtime started: {} workers (up to {}), throughput {}", workerCount, maxWorkers, throughput);
        startReactor(context);
        startMonitor(context);
    }

    private void startMonitor(BundleContext context) {
        MonitorSettings settings = MonitorSettings.defaults()
                .withPeriod(Duration.ofMillis(intProperty(context, "troupe.monitor.periodMillis",
                        (int) MonitorSettings.DEFAULT_PERIOD.toMillis())))
                .withStallThreshold(Duration.ofMillis(intProperty(context, "troupe.monitor.stallMillis",
                        (int) MonitorSettings.DEFAULT_STALL.toMillis())))
                .withLoopStallThreshold(Duration.ofMillis(intProperty(context, "troupe.monitor.loopStallMillis",
                        (int) MonitorSettings.DEFAULT_LOOP_STALL.toMillis())))
                .withIdlePeriod(Duration.ofSeconds(intProperty(context, "troupe.workers.idleSeconds",
                        (int) MonitorSettings.DEFAULT_IDLE.toSeconds())))
                .withSummaryInterval(Duration.ofSeconds(intProperty(context, "troupe.monitor.summarySeconds",
                        (int) MonitorSettings.DEFAULT_SUMMARY.toSeconds(), 0)));
        List<EventLoop> loops = reactor.loops();
        ActorPoolSettings poolSettings = ActorPoolSettings.defaults()
                .withHighWater(intProperty(context, "troupe.pool.highWater", ActorPoolSettings.DEFAULT_HIGH_WATER, 0))
                .withGrowAfter(Duration.ofMillis(intProperty(context, "troupe.pool.growMillis",
                        (int) ActorPoolSettings.DEFAULT_GROW_AFTER.toMillis(), 0)))
                .withIdlePeriod(Duration.ofSeconds(intProperty(context, "troupe.pool.idleSeconds",
                        (int) ActorPoolSettings.DEFAULT_IDLE.toSeconds())))
                .withCooldown(Duration.ofMillis(intProperty(context, "troupe.pool.cooldownMillis",
                        (int) ActorPoolSettings.DEFAULT_COOLDOWN.toMillis(), 0)));
        monitor = new RuntimeMonitor(settings, workers, system, () -> loops, logging::droppedRecords,
                MonitorListener.NONE, plugins.pools(), poolSettings);
        monitor.start();
        Dictionary<String, Object> properties = new Hashtable<>();
        properties.put(Constants.SERVICE_DESCRIPTION, "Troupe runtime statistics");
        statsRegistration = context.registerService(RuntimeStats.class, monitor.stats(), properties);
    }

    private void stopMonitor() throws InterruptedException {
        if (statsRegistration != null) {
            statsRegistration.unregister();
            statsRegistration = null;
        }
        if (monitor != null) {
            if (!monitor.stop(STOP_TIMEOUT)) {
                LOG.warn("The monitor thread did not end within {}", STOP_TIMEOUT);
            }
            monitor = null;
        }
    }

    private void startReactor(BundleContext context) throws IOException, InterruptedException {
        int ioThreads = intProperty(context, "troupe.ioThreads", Runtime.getRuntime().availableProcessors());
        try {
            reactor = new NioReactor(ioThreads, microsProperty(context, "troupe.io.spinMicros", EventLoop.DEFAULT_SPIN));
        } catch (IOException e) {
            LOG.error("Cannot start the reactor; stopping the runtime", e);
            stop(context); // the framework does not call stop() after a failed start()
            throw e;
        }
        Dictionary<String, Object> properties = new Hashtable<>();
        properties.put(Constants.SERVICE_DESCRIPTION, "Troupe reactor (non-blocking TCP)");
        reactorRegistration = context.registerService(Reactor.class, reactor, properties);
        LOG.info("Reactor started: {} IO loops", ioThreads);
    }

    private void stopReactor() throws InterruptedException {
        if (reactorRegistration != null) {
            reactorRegistration.unregister();
            reactorRegistration = null;
        }
        if (reactor != null) {
            if (!reactor.shutdown(STOP_TIMEOUT)) {
                LOG.warn("Some reactor threads did not end within {}", STOP_TIMEOUT);
            }
            reactor = null;
        }
    }

    @Override
    public void stop(BundleContext context) throws InterruptedException {
        stopMonitor();
        if (deployer != null) {
            deployer.stop();
        }
        stopReactor();
        if (registration != null) {
            registration.unregister();
        }
        plugins.close();
        if (!system.shutdown(STOP_TIMEOUT)) {
            LOG.warn("Actors still running {} after shutdown began; stopping the workers anyway", STOP_TIMEOUT);
        }
        if (!workers.shutdown(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            LOG.warn("Some worker threads did not end within {}", STOP_TIMEOUT);
        }
        timer.shutdown(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        LOG.info("Troupe runtime stopped");
        if (osgiLog != null) {
            osgiLog.close();
            osgiLog = null;
        }
        logging.setRecordContext(RecordContext.NONE);
        logging.stop();
    }

    /**
     * Whether the host's wiring imports {@code packageName}. Checked before the classes that need an
     * optional package are touched, so that they are never loaded without it.
     */
    private static boolean importsPackage(BundleContext context, String packageName) {
        BundleWiring wiring = context.getBundle().adapt(BundleWiring.class);
        return wiring != null && wiring.getRequiredWires(PackageNamespace.PACKAGE_NAMESPACE).stream()
                .anyMatch(wire -> packageName.equals(
                        wire.getCapability().getAttributes().get(PackageNamespace.PACKAGE_NAMESPACE)));
    }

    /** A duration given in whole microseconds, zero allowed. */
    private static Duration microsProperty(BundleContext context, String key, Duration defaultValue) {
        return Duration.ofNanos(1000L * intProperty(context, key, (int) (defaultValue.toNanos() / 1000), 0));
    }

    private static int intProperty(BundleContext context, String key, int defaultValue) {
        return intProperty(context, key, defaultValue, 1);
    }

    private static int intProperty(BundleContext context, String key, int defaultValue, int minimum) {
        String value = context.getProperty(key);
        if (value == null || value.isBlank()) {
            return defaultValue;
        }
        try {
            int parsed = Integer.parseInt(value.trim());
            if (parsed < minimum) {
                throw new NumberFormatException("must be at least " + minimum);
            }
            return parsed;
        } catch (NumberFormatException e) {
            LOG.error("Framework property {}={} is not an integer of at least {} ({}); using {}", key, value,
                    minimum, e.getMessage(), defaultValue);
            return defaultValue;
        }
    }
}
