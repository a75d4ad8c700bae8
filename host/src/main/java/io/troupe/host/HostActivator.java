package io.troupe.host;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Dictionary;
import java.util.HashMap;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

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
import io.troupe.config.CheckedConfiguration;
import io.troupe.config.ConfigurationCheck;
import io.troupe.config.ConfigurationSource;
import io.troupe.host.core.CoreSettings;
import io.troupe.host.core.RuntimeCore;
import io.troupe.host.deploy.DeployWatcher;
import io.troupe.host.deploy.SwapCounts;
import io.troupe.host.log.LoggerUse;
import io.troupe.host.log.OsgiLogForwarder;
import io.troupe.host.log.TroupeLogging;
import io.troupe.host.plugin.PluginDirectory;
import io.troupe.host.reactor.EventLoop;
import io.troupe.host.reactor.NioReactor;
import io.troupe.host.supervise.ProcessSupervision;

/**
 * Wiring only: builds the runtime when the host bundle starts (a {@link RuntimeCore} over the whiteboard of
 * plugin services, {@link PluginDirectory}: the same core an embedded runtime runs), registers it as the
 * {@link TroupeRuntime} service, the reactor as the {@link Reactor} service and the monitor's
 * measurements as the {@link RuntimeStats} service, and takes them down in reverse order when the
 * bundle stops (the monitor first, so that it resizes nothing that is stopping; then the reactor, so
 * no connection feeds a stopping runtime).
 *
 * <p>Settings, each with its type, default, bounds and description in a typed model:
 * <ul>
 * <li>{@link HostFrameworkProperties}: framework properties read once at start (the reactor's IO
 *     loops and spin, the throughput, the deploy folder and its poll, the swap grace, ...);</li>
 * <li>{@link HostConfiguration}: the runtime-tunable settings, ConfigAdmin PID
 *     {@value HostConfiguration#PID} (worker bounds and spin, monitor thresholds, actor pools),
 *     applied while the host runs ({@link #apply}): the worker pool takes new bounds in place, and
 *     the monitor is restarted with its new settings (its {@link RuntimeStats} service is registered
 *     again; a stall being reported is reported again if it lasts). Their old framework properties
 *     {@code troupe.<key>} are the initial values.</li>
 * </ul>
 *
 * <p>From the first step of start to the last of stop, the host holds the process's fatal-error policy
 * ({@link ProcessSupervision}): an {@link OutOfMemoryError} or another {@link VirtualMachineError} on any
 * thread ends the process with one FATAL record and exit status 70.
 *
 * <p><b>Threading:</b> called by the framework, start and stop never concurrently; {@link #apply} is
 * called on ConfigAdmin's thread, and it and the parts of start and stop it touches hold this
 * object's monitor.
 */
public final class HostActivator implements BundleActivator {

    private static final Logger LOG = LoggerFactory.getLogger(HostActivator.class);
    private static final Duration STOP_TIMEOUT = CoreSettings.DEFAULT_SHUTDOWN_TIMEOUT;

    /** The host's use of the logger, from the first statement of start to the last of stop. */
    private LoggerUse logging;
    /** The process's fatal-error policy, from right after the logger to the last step of stop. */
    private ProcessSupervision supervision;
    /** Null without a wired org.osgi.service.log package: then the class is never loaded. */
    private OsgiLogForwarder osgiLog;
    private DeployWatcher deployer;
    /** The deployer's swaps and rollbacks, reported by the monitor's statistics (zeros without a deploy folder). */
    private final SwapCounts swapCounts = new SwapCounts();
    /** Hands the StateStore service to the actor system. */
    private StateStoreTracker stateStores;
    private PluginDirectory plugins;
    private RuntimeCore core;
    private ServiceRegistration<TroupeRuntime> registration;
    private NioReactor reactor;
    private ServiceRegistration<Reactor> reactorRegistration;
    private ServiceRegistration<RuntimeStats> statsRegistration;
    /** Null without a wired org.osgi.service.cm: then only the framework properties apply. */
    private ServiceRegistration<?> tuning;
    /** Guarded by {@code this}: the settings in force; null once stopping. */
    private HostSettings settings;
    private BundleContext context;

    @Override
    public void start(BundleContext context) throws IOException, InterruptedException {
        logging = TroupeLogging.of(LoggerFactory.getILoggerFactory()).use();
        supervision = ProcessSupervision.open();
        if (importsPackage(context, OsgiLogForwarder.PACKAGE)) {
            osgiLog = OsgiLogForwarder.open(context, LoggerFactory.getILoggerFactory());
        } else {
            LOG.info("No OSGi log service package is wired to the host; only SLF4J records reach the log");
        }
        this.context = context;
        int cores = Runtime.getRuntime().availableProcessors();
        HostFrameworkProperties framework = frameworkProperties(context);
        CheckedConfiguration<HostConfiguration> initial = HostSettings.fromFrameworkProperties(context::getProperty);
        initial.problems().forEach(problem -> LOG.error("{}", problem));
        reportMovedProperties(initial);
        HostSettings start = HostSettings.of(initial.typed(), cores, warning -> LOG.warn("{}", warning));
        int throughput = framework.troupe_throughput();
        plugins = new PluginDirectory(context, Duration.ofSeconds(framework.troupe_swap_graceSeconds()));
        core = RuntimeCore.start(new CoreSettings(start.workers(), start.workersMax(), start.workerSpin(), throughput,
                CoreSettings.DEFAULT_PREFIX, STOP_TIMEOUT), plugins,
                HostActivator.class.getClassLoader());
        stateStores = StateStoreTracker.open(context, core.system(), framework.troupe_state_required());
        String deployDir = framework.troupe_deploy_dir();
        if (!deployDir.isBlank()) {
            deployer = new DeployWatcher(context, Path.of(deployDir), plugins,
                    Duration.ofMillis(framework.troupe_deploy_pollMillis()), framework.troupe_deploy_startLevel(),
                    swapCounts);
            deployer.start();
        }
        Dictionary<String, Object> properties = new Hashtable<>();
        properties.put(Constants.SERVICE_DESCRIPTION, "Troupe actor runtime");
        registration = context.registerService(TroupeRuntime.class, core.runtime(), properties);
        LOG.info("Troupe runtime started: {} workers (up to {}), throughput {}", start.workers(), start.workersMax(),
                throughput);
        startReactor(context, framework);
        synchronized (this) {
            settings = start;
            startMonitor(start);
        }
        if (importsPackage(context, "org.osgi.service.cm")) {
            tuning = HostTuning.register(context, initial, cores, this::apply);
        } else {
            LOG.info("No ConfigAdmin package is wired to the host; {} is not read, the framework properties apply",
                    HostConfiguration.PID);
        }
    }

    /**
     * Applies the settings of a changed {@value HostConfiguration#PID}: new worker bounds and spin
     * in place, a restart of the monitor when its settings or the bounds changed.
     */
    synchronized void apply(HostSettings next) {
        if (settings == null || next.equals(settings)) {
            return;
        }
        core.reconfigure(next.workers(), next.workersMax(), next.workerSpin());
        if (settings.monitorDiffers(next)) {
            try {
                stopMonitor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                LOG.warn("Interrupted while restarting the monitor for new settings; keeping the old monitor stopped");
                return;
            }
            startMonitor(next);
        }
        LOG.info("Host settings applied: {} workers (up to {}), worker spin {} µs", next.workers(), next.workersMax(),
                next.workerSpin().toNanos() / 1000);
        settings = next;
    }

    /** The framework properties of {@link HostFrameworkProperties}, checked; bad ones are logged. */
    private static HostFrameworkProperties frameworkProperties(BundleContext context) {
        ConfigurationCheck<HostFrameworkProperties> check = ConfigurationCheck.of(HostFrameworkProperties.class);
        Map<String, Object> raw = new HashMap<>();
        for (String key : check.schema().attributes().keySet()) {
            String value = context.getProperty(key);
            if (value != null && !value.isBlank()) {
                raw.put(key, value);
            }
        }
        CheckedConfiguration<HostFrameworkProperties> checked = check.check(raw, Map.of(),
                ConfigurationSource.describedAs("framework properties"), ConfigurationCheck.Fallback.PREVIOUS_VALUE);
        checked.problems().forEach(problem -> LOG.error("{}", problem));
        return checked.typed();
    }

    /** Says once where the runtime-tunable keys set as framework properties live now. */
    private static void reportMovedProperties(CheckedConfiguration<HostConfiguration> initial) {
        if (initial.values().isEmpty()) {
            return;
        }
        List<String> moved = new ArrayList<>();
        for (Map.Entry<String, Object> entry : new TreeMap<>(initial.values()).entrySet()) {
            moved.add(HostSettings.FRAMEWORK_PREFIX + entry.getKey() + "=" + entry.getValue());
        }
        LOG.warn("Framework properties {} are read as initial values: these keys live in etc/{}.cfg now (PID {}, "
                + "without the troupe. prefix), where a change applies while Troupe runs and overrides them",
                moved, HostConfiguration.PID, HostConfiguration.PID);
    }

    /** Starts the monitor with {@code current} and registers its statistics; under this object's monitor. */
    private void startMonitor(HostSettings current) {
        List<EventLoop> loops = reactor.loops();
        RuntimeStats stats = core.startMonitor(current.monitor(), current.pools(), () -> loops, swapCounts);
        Dictionary<String, Object> properties = new Hashtable<>();
        properties.put(Constants.SERVICE_DESCRIPTION, "Troupe runtime statistics");
        statsRegistration = context.registerService(RuntimeStats.class, stats, properties);
    }

    private void stopMonitor() throws InterruptedException {
        if (statsRegistration != null) {
            statsRegistration.unregister();
            statsRegistration = null;
        }
        if (core != null) {
            core.stopMonitor();
        }
    }

    private void startReactor(BundleContext context, HostFrameworkProperties framework)
            throws IOException, InterruptedException {
        int ioThreads = framework.troupe_ioThreads() == 0 ? Runtime.getRuntime().availableProcessors()
                : framework.troupe_ioThreads();
        try {
            reactor = new NioReactor(ioThreads, Duration.ofNanos(1000L * framework.troupe_io_spinMicros()));
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
        if (tuning != null) {
            tuning.unregister();
            tuning = null;
        }
        synchronized (this) {
            settings = null;
            stopMonitor();
        }
        if (deployer != null) {
            deployer.stop();
        }
        stopReactor();
        if (registration != null) {
            registration.unregister();
        }

        if (core != null) {
            core.close(this::closeOsgiLog); // the plugins' actors, every actor, the workers, the timer
            core = null;
        } else {
            closeOsgiLog();
        }
        if (stateStores != null) {
            stateStores.close(); // after the actors' last writes were queued
            stateStores = null;
        }
        if (supervision != null) {
            supervision.close();
            supervision = null;
        }
        logging.close();
    }

    private void closeOsgiLog() {
        if (osgiLog != null) {
            osgiLog.close();
            osgiLog = null;
        }
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
}
