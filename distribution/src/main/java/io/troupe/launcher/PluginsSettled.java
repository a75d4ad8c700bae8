package io.troupe.launcher;

import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleEvent;
import org.osgi.framework.BundleListener;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceEvent;
import org.osgi.framework.ServiceListener;
import org.osgi.framework.ServiceReference;

/**
 * Waits, a bounded time, until the host has started the plugins of {@code deploy/}: the host's deployer
 * registers a service with the property {@value #SETTLED_PROPERTY} once every plugin found at startup has
 * started, failed, or outlived {@value #START_TIMEOUT_KEY} (a plugin whose activator hangs is reported by the
 * host and not waited for). The launcher matches the property only, so it needs none of the host's classes.
 * The server starts after this wait, so that its port opens once the plugins serve, and whatever one plugin
 * does.
 *
 * <p><b>Threading:</b> {@link #await} blocks the launcher's main thread; the listeners run on framework
 * threads and only count down a latch.
 */
final class PluginsSettled {

    /** The service property the host's deployer registers (io.troupe.host.deploy.DeployWatcher.SETTLED_PROPERTY). */
    static final String SETTLED_PROPERTY = "troupe.deploy.settled";
    /** The framework property bounding a plugin's start (io.troupe.host.deploy.DeploySettings). */
    static final String START_TIMEOUT_KEY = "troupe.deploy.startTimeoutSeconds";
    /** The host's default for {@value #START_TIMEOUT_KEY}. */
    static final long DEFAULT_START_TIMEOUT_SECONDS = 10;
    /** Added to the start timeout: the host reports at its timeout, the launcher gives up a little later. */
    static final long MARGIN_SECONDS = 5;

    private PluginsSettled() {
    }

    /**
     * How long the launcher waits: the start timeout the host applies ({@value #START_TIMEOUT_KEY} if it is a
     * positive whole number, else the host's default, which the host then applies too) plus a margin.
     */
    static long timeoutSeconds(String startTimeout) {
        long seconds = DEFAULT_START_TIMEOUT_SECONDS;
        if (startTimeout != null) {
            try {
                long value = Long.parseLong(startTimeout.strip());
                if (value >= 1 && value <= 3600) {
                    seconds = value;
                }
            } catch (NumberFormatException e) {
                // the host reports the bad value with its key and applies the default
            }
        }
        return seconds + MARGIN_SECONDS;
    }

    /**
     * The host's summary ("3 running, 1 failed, 1 still starting") once the plugins have settled; empty if they
     * did not within {@code timeoutSeconds}, or the framework began to stop meanwhile.
     */
    static Optional<String> await(BundleContext context, long timeoutSeconds) throws InterruptedException {
        String filter = "(" + SETTLED_PROPERTY + "=*)";
        AtomicReference<String> summary = new AtomicReference<>();
        CountDownLatch settled = new CountDownLatch(1);
        ServiceListener listener = event -> {
            if (event.getType() == ServiceEvent.REGISTERED) {
                summary.compareAndSet(null, String.valueOf(event.getServiceReference().getProperty(SETTLED_PROPERTY)));
                settled.countDown();
            }
        };
        BundleListener stopping = event -> {
            if (event.getBundle().getBundleId() == 0 && event.getType() == BundleEvent.STOPPING) {
                settled.countDown();
            }
        };
        try {
            context.addServiceListener(listener, filter);
        } catch (InvalidSyntaxException e) {
            throw new IllegalStateException(e);
        }
        context.addBundleListener(stopping);
        try {
            ServiceReference<?>[] existing = context.getServiceReferences((String) null, filter);
            if (existing != null && existing.length > 0) {
                summary.compareAndSet(null, String.valueOf(existing[0].getProperty(SETTLED_PROPERTY)));
                settled.countDown();
            }
            settled.await(timeoutSeconds, TimeUnit.SECONDS);
            return Optional.ofNullable(summary.get());
        } catch (InvalidSyntaxException e) {
            throw new IllegalStateException(e);
        } finally {
            try {
                context.removeServiceListener(listener);
                context.removeBundleListener(stopping);
            } catch (IllegalStateException e) {
                // the framework stopped meanwhile: its listeners went with it
            }
        }
    }
}
