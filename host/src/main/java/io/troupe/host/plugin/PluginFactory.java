package io.troupe.host.plugin;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.osgi.framework.ServiceReference;

import io.troupe.api.ActorFactory;
import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.host.actor.ActorSystem;
import io.troupe.host.actor.FactorySource;
import io.troupe.host.actor.StopReason;

/**
 * One {@link ActorFactory} service registered by a plugin bundle, with the handler and factory names
 * it serves, its per-tenant handler actors and every actor created from it, so that they all stop
 * when the service goes away, or move to the next revision's service when the plugin is swapped.
 * While a swap is pending the factory is <i>retired</i>: its actors are detached, and handler actors
 * for new tenants are created detached too.
 *
 * <p>A poolable service (see {@link PoolBounds}) serves each tenant with an {@link ActorPool} instead
 * of one actor; the pool's members are attached here like handler actors, so that they are swapped
 * and stopped with the service, and the pools follow the service's successor on a swap. A tenant
 * keeps the kind of handler it has across a swap (a pool stays a pool, with the new revision's
 * bounds if it declares any; a single actor stays single) until it stops.
 *
 * <p><b>Threading:</b> every method from any thread; the actor sets are concurrent.
 */
final class PluginFactory implements FactorySource, MemberSource {

    private final ServiceReference<ActorFactory> reference;
    private final ActorFactory factory;
    private final List<String> handlerNames;
    private final List<String> factoryNames;
    private final String bundle;
    private final String symbolicName;
    private final ConcurrentHashMap<String, ActorRef> handlerActors = new ConcurrentHashMap<>();
    /** Every live actor created from this service, with the factory name it came from ("" for handlers). */
    private final ConcurrentHashMap<ActorRef, String> attached = new ConcurrentHashMap<>();
    private volatile boolean retired;
    /** The pool bounds when the handler is poolable, {@code null} when it is served by one actor per tenant. */
    private final PoolBounds poolBounds;
    private final ActorPools pools;

    PluginFactory(ServiceReference<ActorFactory> reference, ActorFactory factory,
                  List<String> handlerNames, List<String> factoryNames) {
        this(reference, factory, handlerNames, factoryNames, null, null);
    }

    /**
     * @param poolBounds the pool bounds of a poolable handler, {@code null} for one actor per tenant
     * @param pools      where pools register for the monitor; only used with {@code poolBounds}
     */
    PluginFactory(ServiceReference<ActorFactory> reference, ActorFactory factory, List<String> handlerNames,
                  List<String> factoryNames, PoolBounds poolBounds, ActorPools pools) {
        this.poolBounds = handlerNames.isEmpty() ? null : poolBounds;
        this.pools = pools;
        this.reference = reference;
        this.factory = factory;
        this.handlerNames = List.copyOf(handlerNames);
        this.factoryNames = List.copyOf(factoryNames);
        this.bundle = reference.getBundle() == null ? "?"
                : reference.getBundle().getSymbolicName() + " " + reference.getBundle().getVersion();
        this.symbolicName = reference.getBundle() == null ? "?" : reference.getBundle().getSymbolicName();
    }

    @Override
    public ActorFactory factory() {
        return factory;
    }

    @Override
    public String origin() {
        return handlerNames.isEmpty() ? "factory:" + factoryNames.get(0) : "handler:" + handlerNames.get(0);
    }

    @Override
    public void attach(ActorRef actor) {
        attached.put(actor, "");
    }

    private void attach(ActorRef actor, String factoryName) {
        attached.put(actor, factoryName);
    }

    @Override
    public void detach(ActorRef actor) {
        attached.remove(actor);
        handlerActors.values().remove(actor);
    }

    String symbolicName() {
        return symbolicName;
    }

    boolean isRetired() {
        return retired;
    }

    /** Marks this service as gone while its actors wait, detached, for the next revision. */
    void retire() {
        retired = true;
    }

    /** The live actors created from this service. */
    List<ActorRef> actors() {
        return List.copyOf(attached.keySet());
    }

    /**
     * Which of {@code previous}'s actors this service can take over, and from which source: a handler
     * actor needs this service to serve handlers, a factory-made actor needs the same factory name.
     */
    Map<ActorRef, FactorySource> takeOverPlan(PluginFactory previous) {
        Map<ActorRef, FactorySource> plan = new LinkedHashMap<>();
        previous.attached.forEach((actor, factoryName) -> {
            if (factoryName.isEmpty() && !handlerNames.isEmpty()) {
                plan.put(actor, this);
            } else if (!factoryName.isEmpty() && factoryNames.contains(factoryName)) {
                plan.put(actor, asFactory(factoryName));
            }
        });
        return plan;
    }

    /** After a committed swap: the actors of {@code plan}, taken over from {@code previous}, are ours. */
    void adopt(PluginFactory previous, Map<ActorRef, FactorySource> plan) {
        plan.keySet().forEach(actor -> {
            String factoryName = previous.attached.remove(actor);
            attached.put(actor, factoryName == null ? "" : factoryName);
        });
        // The previous service keeps its entries: until the names route here, requests reaching it
        // must find these (now running) actors rather than spawn new ones.
        previous.handlerActors.forEach((tenant, actor) -> {
            if (actor instanceof ActorPool pool && !handlerNames.isEmpty()) {
                pool.moveTo(this, poolBounds); // its members are in the plan
                handlerActors.put(tenant, pool);
            } else if (plan.containsKey(actor)) {
                handlerActors.put(tenant, actor);
            }
        });
    }

    /** Whether this service serves any handler or factory name {@code other} served. */
    boolean overlaps(PluginFactory other) {
        return handlerNames.stream().anyMatch(other.handlerNames::contains)
                || factoryNames.stream().anyMatch(other.factoryNames::contains);
    }

    ServiceReference<ActorFactory> reference() {
        return reference;
    }

    List<String> handlerNames() {
        return handlerNames;
    }

    List<String> factoryNames() {
        return factoryNames;
    }

    String bundle() {
        return bundle;
    }

    /** A source whose actors report the given factory name as their origin. */
    FactorySource asFactory(String factoryName) {
        PluginFactory owner = this;
        return new FactorySource() {
            @Override
            public ActorFactory factory() {
                return factory;
            }

            @Override
            public String origin() {
                return "factory:" + factoryName;
            }

            @Override
            public void attach(ActorRef actor) {
                owner.attach(actor, factoryName);
            }

            @Override
            public void detach(ActorRef actor) {
                owner.detach(actor);
            }
        };
    }

    /**
     * The tenant's handler actor (or actor pool, for a poolable handler), spawned on first use (and
     * again after it stopped); while retired, a new one is spawned detached, to be taken over by the
     * next revision.
     */
    ActorRef handlerActor(String tenant, ActorSystem system) {
        ActorRef existing = handlerActors.get(tenant);
        if (existing != null && !existing.isStopped()) {
            return existing; // the common case, without the map's lock
        }
        return handlerActors.compute(tenant, (key, current) -> {
            if (current != null && !current.isStopped()) {
                return current;
            }
            if (poolBounds != null) {
                return new ActorPool(system, pools, this, poolBounds,
                        handlerNames.get(0), tenant);
            }
            ActorOptions options = ActorOptions.defaults().withName(origin() + "@" + tenant);
            return retired ? system.spawnDetached(this, options, tenant) : system.spawn(this, options, tenant);
        });
    }

    @Override
    public ActorRef spawnMember(ActorSystem system, String tenant, ActorOptions options) {
        return retired ? system.spawnDetached(this, options, tenant) : system.spawn(this, options, tenant);
    }

    /** The pool bounds of a poolable handler; {@code null} when each tenant gets one actor. */
    PoolBounds poolBounds() {
        return poolBounds;
    }

    /**
     * Stops every actor created from this factory; queued requests fail with the reason's code. The
     * actor pools this service feeds are closed first, so that they spawn no new members.
     */
    void stopAll(ActorSystem system, StopReason reason) {
        handlerActors.values().forEach(actor -> {
            if (actor instanceof ActorPool pool && pool.isFedBy(this)) {
                pool.close();
            }
        });
        for (ActorRef actor : attached.keySet()) {
            system.stop(actor, reason);
        }
    }

    @Override
    public String toString() {
        return origin() + " from " + bundle;
    }
}
