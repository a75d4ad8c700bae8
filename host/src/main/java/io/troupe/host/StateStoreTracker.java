package io.troupe.host;

import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;
import org.osgi.util.tracker.ServiceTracker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.state.StateStore;
import io.troupe.host.actor.ActorSystem;

/**
 * Gives the actor system the first {@link StateStore} service registered, and another one (or none) when
 * it goes away, so that durable actors store their state wherever the installation keeps it. Switching
 * stores under running actors would split their state, so a second store registered meanwhile is only
 * kept in reserve.
 *
 * <p><b>Threading:</b> the tracker's callbacks run on framework threads, serialised by the tracker;
 * the system reads the store through a volatile field.
 */
final class StateStoreTracker extends ServiceTracker<StateStore, StateStore> {

    private static final Logger LOG = LoggerFactory.getLogger(StateStoreTracker.class);

    private final ActorSystem system;
    private final boolean required;
    /** The store the system uses now; only touched by the tracker's callbacks, which it serialises. */
    private StateStore current;

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
        if (store != null && current == null) {
            // not getService(): the tracker counts this service as tracked only once this method returned
            current = store;
            system.useStateStore(store, required);
            LOG.info("Durable actors keep their state in {} from {}", store, reference.getBundle());
        }
        return store;
    }

    @Override
    public void removedService(ServiceReference<StateStore> reference, StateStore store) {
        super.removedService(reference, store);
        if (store != current) {
            return;
        }
        current = getService(); // the removed one is no longer tracked here
        system.useStateStore(current, required);
        LOG.info("State store {} from {} went away{}", store, reference.getBundle(), current != null
                ? "; durable actors keep their state in " + current + " from now on"
                : required ? "; durable actors cannot start until one comes back" : "");
    }
}
