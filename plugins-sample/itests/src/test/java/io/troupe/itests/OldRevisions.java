package io.troupe.itests;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.wiring.BundleWiring;
import org.osgi.framework.wiring.FrameworkWiring;

/**
 * What the leak tests need to tell whether the revisions a hot swap left behind can be collected:
 * weak references to revisions' class loaders, a refresh of the bundles pending removal, and
 * collections until the loaders are gone.
 *
 * <p><b>Threading:</b> stateless; the test thread.
 */
final class OldRevisions {

    private static final int GC_ROUNDS = 20;

    private OldRevisions() {
    }

    /** Kept in its own frame, so that no strong reference to the wiring or its loader outlives the call. */
    static WeakReference<ClassLoader> classLoaderOf(Bundle bundle) {
        BundleWiring wiring = bundle.adapt(BundleWiring.class);
        assertTrue("no class loader for " + bundle, wiring != null && wiring.getClassLoader() != null);
        return new WeakReference<>(wiring.getClassLoader());
    }

    /** Refreshes every bundle pending removal (old revisions still wired), and waits for the framework. */
    static void refreshPendingBundles(BundleContext context) throws InterruptedException {
        FrameworkWiring wiring = context.getBundle(0).adapt(FrameworkWiring.class);
        CountDownLatch refreshed = new CountDownLatch(1);
        List<FrameworkEvent> events = new ArrayList<>();
        wiring.refreshBundles(null, event -> {
            synchronized (events) {
                events.add(event);
            }
            refreshed.countDown();
        });
        assertTrue("PACKAGES_REFRESHED within 30 s", refreshed.await(30, TimeUnit.SECONDS));
        synchronized (events) {
            assertEquals("refresh: " + events, FrameworkEvent.PACKAGES_REFRESHED, events.get(0).getType());
        }
    }

    /**
     * Collects garbage until every loader is gone or {@value #GC_ROUNDS} rounds passed; returns the
     * names of those left.
     */
    static List<String> collect(Map<String, WeakReference<ClassLoader>> loaders) {
        List<String> left = new ArrayList<>(loaders.keySet());
        for (int round = 0; round < GC_ROUNDS && !left.isEmpty(); round++) {
            System.gc();
            left.removeIf(name -> loaders.get(name).get() == null);
            if (!left.isEmpty()) {
                DeployFolder.pause(Duration.ofMillis(50)); // reference processing runs meanwhile
            }
        }
        return left;
    }
}
