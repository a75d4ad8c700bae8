package io.troupe.host.plugin;

import java.util.List;
import java.util.Set;
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
 * when the service goes away.
 *
 * <p><b>Threading:</b> every method from any thread; the actor sets are concurrent.
 */
final class PluginFactory implements FactorySource {

    private final ServiceReference<ActorFactory> reference;
    private final ActorFactory factory;
    private final List<String> handlerNames;
    private final List<String> factoryNames;
    private final String bundle;
    private final ConcurrentHashMap<String, ActorRef> handlerActors = new ConcurrentHashMap<>();
    private final Set<ActorRef> attached = ConcurrentHashMap.newKeySet();

    PluginFactory(ServiceReference<ActorFactory> reference, ActorFactory factory,
                  List<String> handlerNames, List<String> factoryNames) {
        this.reference = reference;
        this.factory = factory;
        this.handlerNames = List.copyOf(handlerNames);
        this.factoryNames = List.copyOf(factoryNames);
        this.bundle = reference.getBundle() == null ? "?"
                : reference.getBundle().getSymbolicName() + " " + reference.getBundle().getVersion();
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
        attached.add(actor);
    }

    @Override
    public void detach(ActorRef actor) {
        attached.remove(actor);
        handlerActors.values().remove(actor);
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
                owner.attach(actor);
            }

            @Override
            public void detach(ActorRef actor) {
                owner.detach(actor);
            }
        };
    }

    /** The tenant's handler actor, spawned on first use (and again after it stopped). */
    ActorRef handlerActor(String tenant, ActorSystem system) {
        return handlerActors.compute(tenant, (key, existing) -> existing != null && !existing.isStopped()
                ? existing
                : system.spawn(this, ActorOptions.defaults().withName(origin() + "@" + tenant), tenant));
    }

    /** Stops every actor created from this factory; queued requests fail with the reason's code. */
    void stopAll(ActorSystem system, StopReason reason) {
        for (ActorRef actor : attached) {
            system.stop(actor, reason);
        }
    }

    @Override
    public String toString() {
        return origin() + " from " + bundle;
    }
}
