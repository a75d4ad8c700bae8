package io.troupe.host;

import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;
import org.osgi.util.tracker.ServiceTracker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.state.StateStore;
import io.troupe.host.actor.ActorSystem;

/**
 * Gives the actor system the best {@link StateStore} service (the highest {@code service.ranking}, then
 * the first registered), and the next best (or none) when it goes away, so that durable actors store
 * their state wherever the installation keeps it.
 *
 * <p>A store of equal or lower rank registered meanwhile is kept in reserve: switching stores under
 * running actors would split their state. A store of higher rank takes over for the actors that start
 * from then on (each actor keeps the store it started with): the cluster's replicated store (rank 100)
 * arrives after the local one, was seeded from it, writes through to it, and no tenant's actor runs
 * before it is there, since the server admits no client until the cluster has placed its tenant.
 *
 * <p><b>Threading:</b> the tracker's callbacks run on framework threads, serialised by the tracker;
 * the system reads the store through a volatile field.
 */
final class StateStoreTracker extends ServiceTracker<StateStore, StateStore> {

    private static final Logger LOG = LoggerFactory.getLogger(StateStoreTracker.class);

    private final ActorSystem system;
    private final boolean required;
    /** The store the system uses now and its reference; only touched by the tracker's callbacks, which it serialises. */
    private StateStore current;
    private ServiceReference<StateStore> currentReference;

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
        if (store == null) {
            return null;
        }
        if (current == null || reference.compareTo(currentReference) > 0) {
            // not getService(): the tracker counts this service as tracked only once this method returned
            StateStore before = current;
            use(reference, store);
            if (before == null) {
                LOG.info("Durable actors keep their state in {} from {}", store, reference.getBundle());
            } else {
                LOG.info("Durable actors starting from now on keep their state in {} from {} (ranked above {})",
                        store, reference.getBundle(), before);
            }
        }
        return store;
    }

    @Override
    public void removedService(ServiceReference<StateStore> reference, StateStore store) {
        super.removedService(reference, store);
        if (store != current) {
            return;
        }
        ServiceReference<StateStore> next = getServiceReference(); // the best one left; the removed one is gone
        use(next, next == null ? null : getService(next));
        LOG.info("State store {} from {} went away{}", store, reference.getBundle(), current != null
                ? "; durable actors keep their state in " + current + " from now on"
                : required ? "; durable actors cannot start until one comes back" : "");
    }

    private void use(ServiceReference<StateStore> reference, StateStore store) {
        currentReference = store == null ? null : reference;
        current = store;
        system.useStateStore(store, required);
    }
}
