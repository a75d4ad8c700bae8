package io.troupe.itests.plugins;

import java.util.Collection;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceReference;

/**
 * The activator of a plugin that holds its {@code start} until a test opens a gate: a
 * {@link CountDownLatch} service whose {@value #GATE} property is this bundle's symbolic name. With
 * no such service it starts at once. The test uses the held start to change the deploy folder while
 * the deployer is still installing.
 *
 * <p><b>Threading:</b> called by the framework, on the thread that starts the bundle (the deployer).
 */
public final class GatedActivator implements BundleActivator {

    /** The service property naming the bundle a gate holds. */
    public static final String GATE = "troupe.itests.gate";
    /** How long a start waits for its gate at most; the test fails long before. */
    private static final long MAX_WAIT_SECONDS = 60;

    @Override
    public void start(BundleContext context) throws InterruptedException, InvalidSyntaxException {
        String filter = "(" + GATE + "=" + context.getBundle().getSymbolicName() + ")";
        Collection<ServiceReference<CountDownLatch>> gates = context.getServiceReferences(CountDownLatch.class, filter);
        for (ServiceReference<CountDownLatch> reference : gates) {
            CountDownLatch gate = context.getService(reference);
            try {
                if (gate != null && !gate.await(MAX_WAIT_SECONDS, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the gate stayed shut for " + MAX_WAIT_SECONDS + " s");
                }
            } finally {
                context.ungetService(reference);
            }
        }
    }

    @Override
    public void stop(BundleContext context) {
    }
}
