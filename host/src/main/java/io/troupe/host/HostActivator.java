package io.troupe.host;

import java.time.Duration;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.concurrent.TimeUnit;

import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceRegistration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.TroupeRuntime;
import io.troupe.host.actor.ActorSystem;
import io.troupe.host.dispatch.WorkerPool;
import io.troupe.host.log.TroupeLogging;
import io.troupe.host.plugin.PluginDirectory;
import io.troupe.host.timer.TimerThread;

/**
 * Wiring only: builds the runtime when the host bundle starts, registers it as the
 * {@link TroupeRuntime} service, and takes it down in reverse order when the bundle stops.
 *
 * <p>Framework properties: {@code troupe.workers} (worker threads, default: available processors),
 * {@code troupe.throughput} (messages per actor turn, default {@value ActorSystem#DEFAULT_THROUGHPUT}).
 *
 * <p><b>Threading:</b> called by the framework, start and stop never concurrently.
 */
public final class HostActivator implements BundleActivator {

    private static final Logger LOG = LoggerFactory.getLogger(HostActivator.class);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);

    private TroupeLogging logging;
    private WorkerPool workers;
    private TimerThread timer;
    private PluginDirectory plugins;
    private ActorSystem system;
    private ServiceRegistration<TroupeRuntime> registration;

    @Override
    public void start(BundleContext context) {
        logging = TroupeLogging.of(LoggerFactory.getILoggerFactory());
        logging.start();
        int workerCount = intProperty(context, "troupe.workers", Runtime.getRuntime().availableProcessors());
        int throughput = intProperty(context, "troupe.throughput", ActorSystem.DEFAULT_THROUGHPUT);
        workers = new WorkerPool(workerCount, "troupe-worker", HostActivator.class.getClassLoader());
        timer = new TimerThread("troupe-timer");
        plugins = new PluginDirectory(context);
        system = new ActorSystem(workers, timer, plugins, throughput);
        plugins.open(system);
        Dictionary<String, Object> properties = new Hashtable<>();
        properties.put(Constants.SERVICE_DESCRIPTION, "Troupe actor runtime");
        registration = context.registerService(TroupeRuntime.class, new HostRuntime(system, plugins), properties);
        LOG.info("Troupe runtime started: {} workers, throughput {}", workerCount, throughput);
    }

    @Override
    public void stop(BundleContext context) throws InterruptedException {
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
        logging.stop();
    }

    private static int intProperty(BundleContext context, String key, int defaultValue) {
        String value = context.getProperty(key);
        if (value == null || value.isBlank()) {
            return defaultValue;
        }
        try {
            int parsed = Integer.parseInt(value.trim());
            if (parsed < 1) {
                throw new NumberFormatException("must be at least 1");
            }
            return parsed;
        } catch (NumberFormatException e) {
            LOG.error("Framework property {}={} is not a positive integer ({}); using {}", key, value,
                    e.getMessage(), defaultValue);
            return defaultValue;
        }
    }
}
