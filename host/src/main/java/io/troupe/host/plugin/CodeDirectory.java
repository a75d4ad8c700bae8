package io.troupe.host.plugin;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.ActorFactory;
import io.troupe.api.ActorRef;
import io.troupe.api.ErrorCode;
import io.troupe.host.actor.ActorSystem;
import io.troupe.host.actor.FactorySource;
import io.troupe.host.actor.StopReason;
import io.troupe.host.timer.Scheduler;

/**
 * The handlers and factories an application registered in code on the embedded runtime: the
 * {@link ActorDirectory} of a plain class path, where the server has the whiteboard of plugin services. Each
 * registration is a {@link PluginFactory} provided {@linkplain CodeProvider#inCode() in code}, so its actors
 * are created, pooled, limited per tenant and stopped exactly as a plugin service's; withdrawing it is what a
 * plugin's service going away is: its names disappear, its actors stop, requests still queued for them fail
 * with {@code no.handler}.
 *
 * <p>A name belongs to one registration at a time: registering a name that is registered already is
 * refused, so that code never shadows code silently.
 *
 * <p><b>Threading:</b> lookups are lock-free reads of immutable maps, republished on every change; changes
 * ({@link #register}, {@link Entry#withdraw}, {@link #close}) from any thread, serialised by a monitor.
 */
public final class CodeDirectory implements ActorDirectory {

    private static final Logger LOG = LoggerFactory.getLogger(CodeDirectory.class);

    private final ActorPools pools = new ActorPools();
    private final Object changes = new Object();
    /** Guarded by {@link #changes}. */
    private final List<PluginFactory> registered = new ArrayList<>();
    /** Guarded by {@link #changes}. */
    private boolean closed;
    private volatile ActorSystem system;
    private volatile Map<String, PluginFactory> handlers = Map.of();
    private volatile Map<String, PluginFactory> factories = Map.of();

    /** One registration; {@link #withdraw()} takes it back. */
    public final class Entry {

        private final PluginFactory plugin;

        private Entry(PluginFactory plugin) {
            this.plugin = plugin;
        }

        /**
         * Withdraws the registration: its names disappear and the actors created from it stop (children
         * first), their queued requests failing with {@code no.handler}. Idempotent.
         */
        public void withdraw() {
            boolean stopActors;
            synchronized (changes) {
                if (!registered.remove(plugin)) {
                    return;
                }
                republish();
                stopActors = !closed && system != null;
            }
            if (stopActors) {
                plugin.stopAll(system, new StopReason("code went away: '" + names(plugin) + "' "
                        + plugin.bundle() + " is no longer registered", ErrorCode.NO_HANDLER, null));
            }
            LOG.debug("Withdrew {} {}", kind(plugin), names(plugin));
        }

        @Override
        public String toString() {
            return kind(plugin) + " " + names(plugin);
        }
    }

    /**
     * Registers {@code factory} under {@code handlerNames} (served by one actor per tenant, or by an actor
     * pool of {@code min..max} members per tenant when {@code poolMax > 0}) and {@code factoryNames}.
     *
     * @param poolMin the fewest members of a poolable handler's pool, ignored unless {@code poolMax > 0}
     * @param poolMax the most members; 0 for a handler served by one actor per tenant
     * @throws IllegalArgumentException when one of the names is registered already
     * @throws IllegalStateException    when the directory is closed
     */
    public Entry register(List<String> handlerNames, List<String> factoryNames, ActorFactory factory,
                          int poolMin, int poolMax) {
        PoolBounds bounds = poolMax > 0 ? new PoolBounds(poolMin, poolMax) : null;
        PluginFactory plugin = new PluginFactory(CodeProvider.inCode(), factory, handlerNames, factoryNames,
                bounds, pools);
        synchronized (changes) {
            if (closed) {
                throw new IllegalStateException("the runtime is closed; nothing can be registered on it");
            }
            for (String name : handlerNames) {
                if (handlers.containsKey(name)) {
                    throw new IllegalArgumentException("a handler for '" + name + "' is registered already;"
                            + " close its registration first");
                }
            }
            for (String name : factoryNames) {
                if (factories.containsKey(name)) {
                    throw new IllegalArgumentException("a factory named '" + name + "' is registered already;"
                            + " close its registration first");
                }
            }
            registered.add(plugin);
            republish();
        }
        LOG.debug("Registered {} {}{}", kind(plugin), names(plugin), bounds == null ? "" : ", pooled " + bounds);
        return new Entry(plugin);
    }

    @Override
    public void open(ActorSystem system, Scheduler scheduler) {
        this.system = system;
    }

    /**
     * Refuses new registrations, forgets every name (a lookup finds nothing: {@code no.handler},
     * {@code no.factory}) and stops the actors of every registration: the runtime is closing.
     */
    @Override
    public void close() {
        List<PluginFactory> current;
        synchronized (changes) {
            if (closed) {
                return;
            }
            closed = true;
            current = List.copyOf(registered);
            registered.clear();
            republish();
        }
        ActorSystem actors = system;
        if (actors != null) {
            current.forEach(plugin -> plugin.stopAll(actors, StopReason.SHUTDOWN));
        }
    }

    @Override
    public Optional<FactorySource> resolve(String factoryName) {
        PluginFactory plugin = factories.get(factoryName);
        return plugin == null ? Optional.empty() : Optional.of(plugin.asFactory(factoryName));
    }

    @Override
    public Optional<ActorRef> handler(String tenant, String messageName) {
        PluginFactory plugin = handlers.get(messageName);
        return plugin == null ? Optional.empty() : plugin.handlerFor(tenant, messageName, system);
    }

    @Override
    public Set<String> handlerNames() {
        return handlers.keySet();
    }

    @Override
    public Set<String> factoryNames() {
        return factories.keySet();
    }

    @Override
    public void forgetTenant(String tenant) {
        synchronized (changes) {
            registered.forEach(plugin -> plugin.forgetTenant(tenant));
        }
    }

    @Override
    public ActorPools pools() {
        return pools;
    }

    /** Rebuilds the name maps; with {@link #changes} held. */
    private void republish() {
        Map<String, PluginFactory> nextHandlers = new HashMap<>();
        Map<String, PluginFactory> nextFactories = new HashMap<>();
        for (PluginFactory plugin : registered) {
            plugin.handlerNames().forEach(name -> nextHandlers.put(name, plugin));
            plugin.factoryNames().forEach(name -> nextFactories.put(name, plugin));
        }
        handlers = Map.copyOf(nextHandlers);
        factories = Map.copyOf(nextFactories);
    }

    private static String kind(PluginFactory plugin) {
        return plugin.handlerNames().isEmpty() ? "factory" : "handler";
    }

    private static String names(PluginFactory plugin) {
        return String.join(", ", plugin.handlerNames().isEmpty() ? plugin.factoryNames() : plugin.handlerNames());
    }
}
