package io.troupe.itests.plugins;

import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;

/**
 * The activator of a plugin revision that cannot start.
 *
 * <p><b>Threading:</b> called by the framework.
 */
public final class FailingActivator implements BundleActivator {

    /** What the failure says, so that the test can find it in the log. */
    public static final String MESSAGE = "this revision fails to start on purpose";

    @Override
    public void start(BundleContext context) {
        throw new IllegalStateException(MESSAGE);
    }

    @Override
    public void stop(BundleContext context) {
    }
}
