package io.troupe.host.plugin;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Filter;
import org.osgi.framework.FrameworkUtil;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.wiring.BundleWiring;
import org.osgi.util.tracker.ServiceTracker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.ActorFactory;
import io.troupe.api.ActorRef;
import io.troupe.api.ErrorCode;
import io.troupe.api.Factory;
import io.troupe.api.Handler;
import io.troupe.api.Poolable;
import io.troupe.host.actor.ActorSystem;
import io.troupe.host.actor.FactorySource;
import io.troupe.host.actor.StopReason;
import io.troupe.host.timer.Scheduler;

/**
 * The whiteboard of plugin services: tracks every {@link ActorFactory} registered with
 * {@value Handler#PROPERTY} or {@value Factory#PROPERTY}, and answers which factory serves a message
 * name or a factory name. When a service goes away, the actors created from it stop; requests still
 * queued for them fail with {@code no.handler}.
 *
 * <p>A handler service that also declares {@value Poolable#MIN} and {@value Poolable#MAX} is served by
 * an {@link ActorPool} per tenant; the pools are listed in {@link #pools()} for the monitor.
 *
 * <p>When several services claim one name, the one with the highest service ranking (then the
 * lowest service id) wins, as OSGi orders services.
 *
 * <p><b>Threading:</b> lookups are lock-free reads of immutable maps republished on every change;
 * changes arrive on framework threads and are serialised by the tracker's monitor.
 */
public final class PluginDirectory implements ActorDirectory {

    private static final Logger LOG = LoggerFactory.getLogger(PluginDirectory.class);

    private final BundleContext context;
    private final Duration swapGrace;
    private volatile ActorSystem system;
    private volatile PluginSwaps swaps;
    private final List<PluginFactory> tracked = new ArrayList<>();
    private volatile Map<String, PluginFactory> handlers = Map.of();
    private volatile Map<String, PluginFactory> factories = Map.of();
    private ServiceTracker<ActorFactory, PluginFactory> tracker;
    private final ActorPools pools = new ActorPools();

    /**
     * @param swapGrace how long the actors no new revision took over wait after a swap before they stop
     */
    public PluginDirectory(BundleContext context, Duration swapGrace) {
        this.context = context;
        this.swapGrace = swapGrace;
    }

    /**
     * Starts tracking plugin services (those already registered are added at once); their actors live
     * in {@code system}, which resolves factory names through this directory.
     */
    @Override
    public void open(ActorSystem system, Scheduler scheduler) {
        this.system = system;
        this.swaps = new PluginSwaps(system, scheduler, swapGrace, this::forget);
        Filter filter;
        try {
            filter = FrameworkUtil.createFilter("(&(objectClass=" + ActorFactory.class.getName() + ")(|("
                    + Handler.PROPERTY + "=*)(" + Factory.PROPERTY + "=*)))");
        } catch (InvalidSyntaxException e) {
            throw new IllegalStateException(e);
        }
        tracker = new ServiceTracker<>(context, filter, null) {
            @Override
            public PluginFactory addingService(ServiceReference<ActorFactory> reference) {
                return added(reference);
            }

            @Override
            public void removedService(ServiceReference<ActorFactory> reference, PluginFactory plugin) {
                removed(plugin);
            }
        };
        tracker.open();
    }

    /** Stops tracking; the actors of every tracked service stop. */
    @Override
    public void close() {
        if (tracker != null) {
            tracker.close();
        }
    }

    @Override
    public Optional<FactorySource> resolve(String factoryName) {
        PluginFactory plugin = factories.get(factoryName);
        return plugin == null ? Optional.empty() : Optional.of(plugin.asFactory(factoryName));
    }

    /** The factory registered under {@code factoryName}, if its plugin serves {@code tenant} ({@link TenantScope}). */
    @Override
    public Optional<FactorySource> resolve(String factoryName, String tenant) {
        PluginFactory plugin = factories.get(factoryName);
        return plugin == null || !plugin.serves(tenant) ? Optional.empty()
                : Optional.of(plugin.asFactory(factoryName));
    }

    @Override
    public void forgetTenant(String tenant) {
        synchronized (tracked) {
            for (PluginFactory plugin : tracked) {
                plugin.forgetTenant(tenant);
            }
        }
    }

    /**
     * Hot swap, step 1, before the deployer updates {@code bundle}: every actor of its current revision
     * (handler actors, actors spawned by factory name or from factory objects, at any depth) exports
     * its state and waits, detached, for the next revision; messages keep queueing.
     *
     * @return why the swap is refused, with every actor that cannot move; empty when the deployer may
     *         update the bundle. When refused, every actor resumes on the old revision and nothing
     *         has changed.
     */
    public List<String> beginSwap(Bundle bundle) throws InterruptedException {
        String symbolicName = bundle.getSymbolicName();
        BundleWiring wiring = bundle.adapt(BundleWiring.class);
        ClassLoader code = wiring == null ? null : wiring.getClassLoader();
        if (code == null) {
            return List.of(); // not resolved: it runs no actor
        }
        List<PluginFactory> current = new ArrayList<>();
        synchronized (tracked) {
            for (PluginFactory plugin : tracked) {
                if (plugin.symbolicName().equals(symbolicName) && !plugin.isRetired()) {
                    current.add(plugin);
                }
            }
        }
        return swaps.begin(symbolicName, revision(bundle), code, current);
    }

    /** Whether a swap of {@code symbolicName} has begun and not completed. */
    public boolean isSwapping(String symbolicName) {
        return swaps.isSwapping(symbolicName);
    }

    /** Whether the new revision of {@code symbolicName} registered every handler and factory name of {@code names}. */
    public boolean readyToSwap(String symbolicName, Set<String> names) {
        return swaps.ready(symbolicName, names);
    }

    /**
     * Hot swap, step 2, once {@linkplain #readyToSwap the new revision is ready}: moves every detached
     * actor to it, then routes the names to its services, in one step.
     *
     * @return why the new revision cannot take the actors over (each actor that cannot move, and
     *         why); empty when the swap is done. When refused, the actors keep waiting, with their
     *         state, for the revision the deployer puts back.
     */
    public List<String> completeSwap(Bundle bundle) throws InterruptedException {
        String symbolicName = bundle.getSymbolicName();
        PluginSwaps.Completion completion = swaps.complete(symbolicName, bundle::loadClass, revision(bundle));
        if (!completion.done()) {
            return completion.failures();
        }
        synchronized (tracked) {
            // one republish: the names move from the old revision's services to the new ones at once
            tracked.removeAll(completion.retired());
            tracked.addAll(completion.next());
            republish();
        }
        completion.retired().forEach(this::release);
        List<String> handlers = new ArrayList<>();
        List<String> factoryNames = new ArrayList<>();
        completion.next().forEach(plugin -> {
            handlers.addAll(plugin.handlerNames());
            factoryNames.addAll(plugin.factoryNames());
        });
        LOG.info("Plugin {} took over {} actors from {} in a {} ms pause ({}); it provides handlers {} and"
                + " factories {}", revision(bundle), completion.moved(), completion.from(), completion.pauseMillis(),
                completion.summary(), handlers, factoryNames);
        return List.of();
    }

    /** The deployer is done with {@code symbolicName}; actors no revision took over stop after the grace period. */
    public void endSwap(String symbolicName) {
        swaps.end(symbolicName);
    }

    /** The handler and factory names the current services of {@code symbolicName} provide. */
    public Set<String> namesOf(String symbolicName) {
        synchronized (tracked) {
            Set<String> names = new HashSet<>();
            for (PluginFactory plugin : tracked) {
                if (plugin.symbolicName().equals(symbolicName)) {
                    names.addAll(plugin.handlerNames());
                    names.addAll(plugin.factoryNames());
                }
            }
            return names;
        }
    }

    /**
     * The tenant's actor for the handler of {@code messageName}, if a handler serves it and the tenant
     * may use it: the plugin's {@link TenantScope} includes the tenant and the tenant's policy allows
     * the name ({@link PluginFactory#handlerFor}). Otherwise empty, as if no handler served the name.
     */
    @Override
    public Optional<ActorRef> handler(String tenant, String messageName) {
        PluginFactory plugin = handlers.get(messageName);
        return plugin == null ? Optional.empty() : plugin.handlerFor(tenant, messageName, system);
    }

    @Override
    public ActorPools pools() {
        return pools;
    }

    @Override
    public Set<String> handlerNames() {
        return handlers.keySet();
    }

    @Override
    public Set<String> factoryNames() {
        return factories.keySet();
    }

    private PluginFactory added(ServiceReference<ActorFactory> reference) {
        List<String> handlerNames = names(reference.getProperty(Handler.PROPERTY));
        List<String> factoryNames = names(reference.getProperty(Factory.PROPERTY));
        if (handlerNames.isEmpty() && factoryNames.isEmpty()) {
            LOG.error("Ignoring actor factory service {} from {}: {} and {} hold no usable name",
                    reference.getProperty("service.id"), reference.getBundle(), Handler.PROPERTY, Factory.PROPERTY);
            return null;
        }
        ActorFactory factory = context.getService(reference);
        if (factory == null) {
            LOG.error("Actor factory service {} from {} could not be obtained (its component failed to activate?)",
                    reference.getProperty("service.id"), reference.getBundle());
            return null;
        }
        PoolBounds bounds = handlerNames.isEmpty() ? null
                : PoolBounds.declared(reference.getProperty(Poolable.MIN), reference.getProperty(Poolable.MAX),
                        reference.getProperty("service.id") + " from " + reference.getBundle()).orElse(null);
        PluginFactory plugin = PluginService.factory(reference, factory, handlerNames, factoryNames, bounds, pools);
        if (swaps.offer(plugin)) {
            LOG.debug("Plugin {}: {} held back until its actors moved to it", plugin.bundle(), plugin);
            return plugin;
        }
        synchronized (tracked) {
            tracked.add(plugin);
            republish();
        }
        LOG.info("Plugin {} registers {}{}{}", plugin.bundle(), describe(plugin),
                bounds == null ? "" : "; its handler is poolable, " + bounds + " actors per tenant",
                plugin.scope().isLimited() ? "; for " + plugin.scope() + " only" : "");
        return plugin;
    }

    private static String describe(PluginFactory plugin) {
        List<String> parts = new ArrayList<>();
        if (!plugin.handlerNames().isEmpty()) {
            parts.add("handlers " + plugin.handlerNames());
        }
        if (!plugin.factoryNames().isEmpty()) {
            parts.add("factories " + plugin.factoryNames());
        }
        return String.join(" and ", parts);
    }

    private static String revision(Bundle bundle) {
        return bundle.getSymbolicName() + " " + bundle.getVersion();
    }

    private void removed(PluginFactory plugin) {
        if (plugin.isRefused() || swaps.withdraw(plugin)) {
            if (!plugin.isRetired()) {
                release(plugin); // held back or refused: never routed to
            }
            return; // a swapped-out service: routed to its detached actors until the swap completes
        }
        forget(plugin);
        String names = String.join(", ",
                plugin.handlerNames().isEmpty() ? plugin.factoryNames() : plugin.handlerNames());
        plugin.stopAll(system, new StopReason("code went away: '" + names + "' from " + plugin.bundle()
                + " is no longer registered", ErrorCode.NO_HANDLER, null));
        LOG.info("Plugin {} withdrew {}", plugin.bundle(), describe(plugin));
    }

    /** Drops a service from the directory for good. */
    private void forget(PluginFactory plugin) {
        synchronized (tracked) {
            tracked.remove(plugin);
            republish();
        }
        release(plugin);
    }

    /** Gives the service object back to the framework. */
    private void release(PluginFactory plugin) {
        try {
            context.ungetService(PluginService.referenceOf(plugin));
        } catch (IllegalStateException e) {
            // the host itself is stopping; nothing to release
        }
    }

    /** Rebuilds the name maps; called with the {@code tracked} monitor held. */
    private void republish() {
        handlers = Collections.unmodifiableMap(winners(true));
        factories = Collections.unmodifiableMap(winners(false));
    }

    private Map<String, PluginFactory> winners(boolean handlerNames) {
        Map<String, PluginFactory> winners = new HashMap<>();
        for (PluginFactory plugin : tracked) {
            for (String name : handlerNames ? plugin.handlerNames() : plugin.factoryNames()) {
                winners.merge(name, plugin, (a, b) -> {
                    if (a.isRetired() != b.isRetired()) {
                        return a.isRetired() ? b : a; // the next revision, once it took over
                    }
                    PluginFactory winner =
                            PluginService.referenceOf(a).compareTo(PluginService.referenceOf(b)) >= 0 ? a : b;
                    LOG.warn("{} '{}' is registered by {} and {}; using {}", handlerNames ? "Handler" : "Factory",
                            name, a.bundle(), b.bundle(), winner.bundle());
                    return winner;
                });
            }
        }
        return winners;
    }

    private static List<String> names(Object property) {
        Set<String> names = new LinkedHashSet<>();
        if (property instanceof String name) {
            names.add(name);
        } else if (property instanceof String[] array) {
            names.addAll(List.of(array));
        } else if (property instanceof Iterable<?> iterable) {
            iterable.forEach(item -> names.add(String.valueOf(item)));
        }
        names.removeIf(name -> name == null || name.isBlank());
        return List.copyOf(names);
    }
}
