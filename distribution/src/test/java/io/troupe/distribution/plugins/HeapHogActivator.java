package io.troupe.distribution.plugins;

import java.util.ArrayList;
import java.util.List;

import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;

/**
 * The activator of the heap-hog test plugin {@link HeapHogPlugin} builds: never loaded by the tests themselves,
 * only packed into a bundle for the distribution to run. Its start starts a thread, {@value #THREAD}, that
 * allocates 1 MiB arrays and keeps them all until the heap is exhausted: the plugin that eats the memory every
 * other thread of the process then also lacks. Whichever thread meets the first {@link OutOfMemoryError}, this
 * one included, the process must end with its fatal-error exit status.
 *
 * <p><b>Threading:</b> called by the framework on whichever thread starts the bundle; the hog runs on its own.
 */
public final class HeapHogActivator implements BundleActivator {

    static final String THREAD = "heap-hog";

    @Override
    public void start(BundleContext context) {
        Thread hog = new Thread(HeapHogActivator::eatTheHeap, THREAD);
        hog.setDaemon(true);
        hog.start();
    }

    private static void eatTheHeap() {
        List<long[]> held = new ArrayList<>();
        while (held.size() >= 0) {
            held.add(new long[1 << 17]);
        }
    }

    @Override
    public void stop(BundleContext context) {
        // the hog never stops on its own: the process ends first
    }
}
