package io.troupe.itests;

import java.util.ArrayList;
import java.util.List;

import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleEvent;
import org.osgi.framework.SynchronousBundleListener;

/**
 * Records the life of the bundles with one symbolic name as lines such as {@code UPDATED 3.0.0}
 * (the event and the bundle's version when it fired), for assertions about what the deployer did.
 *
 * <p><b>Threading:</b> the framework calls the listener on its own threads; the list is guarded by
 * its monitor; {@link #close()} from the test thread.
 */
final class BundleEvents implements SynchronousBundleListener, AutoCloseable {

    private final BundleContext context;
    private final String symbolicName;
    private final List<String> events = new ArrayList<>();

    private BundleEvents(BundleContext context, String symbolicName) {
        this.context = context;
        this.symbolicName = symbolicName;
    }

    static BundleEvents record(BundleContext context, String symbolicName) {
        BundleEvents recorder = new BundleEvents(context, symbolicName);
        context.addBundleListener(recorder);
        return recorder;
    }

    @Override
    public void bundleChanged(BundleEvent event) {
        if (symbolicName.equals(event.getBundle().getSymbolicName())) {
            synchronized (events) {
                events.add(name(event.getType()) + " " + event.getBundle().getVersion());
            }
        }
    }

    /** The events so far, oldest first. */
    List<String> events() {
        synchronized (events) {
            return List.copyOf(events);
        }
    }

    /** The events so far of one kind, such as {@code UPDATED}. */
    List<String> events(String kind) {
        return events().stream().filter(event -> event.startsWith(kind + " ")).toList();
    }

    @Override
    public void close() {
        context.removeBundleListener(this);
    }

    private static String name(int type) {
        switch (type) {
            case BundleEvent.INSTALLED:
                return "INSTALLED";
            case BundleEvent.RESOLVED:
                return "RESOLVED";
            case BundleEvent.STARTING:
                return "STARTING";
            case BundleEvent.STARTED:
                return "STARTED";
            case BundleEvent.STOPPING:
                return "STOPPING";
            case BundleEvent.STOPPED:
                return "STOPPED";
            case BundleEvent.UPDATED:
                return "UPDATED";
            case BundleEvent.UNRESOLVED:
                return "UNRESOLVED";
            case BundleEvent.UNINSTALLED:
                return "UNINSTALLED";
            default:
                return "EVENT" + type;
        }
    }
}
