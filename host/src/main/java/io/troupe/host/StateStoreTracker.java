package io.troupe.host;

import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;
import org.osgi.util.tracker.ServiceTracker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.state.StateStore;
import io.troupe.host.actor.ActorSystem;

/**
 * Gives the actor system the {@link StateStore} service of the highest ranking, and the next one (or
 * none) when it goes away, so that durable actors store their state wherever the installation keeps it.
 *
 * <p><b>Threading:</b> the tracker's callbacks run on framework threads, serialised by the tracker;
 * the system reads the store through a volatile field.
 */
final class StateStoreTracker extends ServiceTracker<StateStore, StateStore> {

    private static final Logger LOG = LoggerFactory.getLogger(StateStoreTracker.class);

    private final ActorSystem system;
    private final boolean required;

    private StateStoreTracker(BundleContext context, ActorSystem system, boolean required) {
        super(context, StateStore.class, null);
        this.system = system;
        this.required = required;
    }

    /** Starts tracking; a store registered already is used at once. */
    static StateStoreTracker open(BundleContext context, ActorSystem system, boolean required) {
        StateStoreTracker tracker = new StateStoreTracker(context, system, required);
        system.useStateStore(null, required);
        tracker.open();
        return tracker;
    }

    @Override
    public StateStore addingService(ServiceReference<StateStore> reference) {
        StateStore store = super.addingService(reference);
        if (store != null) {
            use();
            LOG.info("Durable actors keep their state in {} from {}", store, reference.getBundle());
        }
        return store;
    }

    @Override
    public void removedService(ServiceReference<StateStore> reference, StateStore store) {
        super.removedService(reference, store);
        use();
        LOG.info("State store {} from {} went away{}", store, reference.getBundle(),
                getService() == null ? (required ? "; durable actors cannot start until one comes back" : "") : "");
    }

    /** Hands the best store tracked now (or none) to the system. */
    private void use() {
        system.useStateStore(getService(), required);
    }
}
