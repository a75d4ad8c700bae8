package io.troupe.host.plugin;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.troupe.api.ActorRef;
import io.troupe.host.actor.DetachedActor;
import io.troupe.host.actor.FactorySource;

/**
 * How each actor taken out of service by a swap is re-created on the next revision, or why it cannot
 * be:
 * <ul>
 *   <li>a handler actor (or actor-pool member) by the next revision's service for the same handler
 *       name;</li>
 *   <li>an actor spawned by factory name by the next revision's service registered under that
 *       name;</li>
 *   <li>any other actor of the plugin (spawned from a lambda, a method reference or an anonymous
 *       factory) from its class: see {@link ActorClassSource}. A lambda actor cannot be re-created
 *       that way, and neither can a class without a no-argument constructor.</li>
 * </ul>
 *
 * <p><b>Threading:</b> built and used by one thread (the deployer's).
 */
final class SwapPlan {

    private final Map<ActorRef, FactorySource> sources = new LinkedHashMap<>();
    /** The next revision's service each moved actor is attached to, with its factory name ("" for handlers). */
    private final Map<ActorRef, Map.Entry<PluginFactory, String>> owners = new LinkedHashMap<>();
    private final List<String> failures = new ArrayList<>();
    private final Map<String, Integer> kinds = new TreeMap<>();

    private SwapPlan() {
    }

    /**
     * @param next     the services the next revision registered
     * @param classes  loads classes as the next revision sees them
     * @param revision names the next revision in errors, e.g. {@code kv 2.0.0}
     */
    static SwapPlan of(List<DetachedActor> actors, List<PluginFactory> next, RevisionClasses classes,
                       String revision) {
        SwapPlan plan = new SwapPlan();
        for (DetachedActor actor : actors) {
            try {
                plan.add(actor, next, classes, revision);
            } catch (IllegalArgumentException e) {
                plan.failures.add(actor.ref().name() + "#" + actor.ref().id() + ": " + e.getMessage());
            }
        }
        return plan;
    }

    private void add(DetachedActor actor, List<PluginFactory> next, RevisionClasses classes, String revision) {
        FactorySource source = actor.source();
        if (source instanceof PluginFactory handler && !handler.handlerNames().isEmpty()) {
            String name = handler.handlerNames().get(0);
            PluginFactory target = find(next, name, true, revision);
            put(actor, target, target, "", "handler actors");
        } else if (source instanceof NamedFactorySource named) {
            PluginFactory target = find(next, named.name(), false, revision);
            put(actor, target.asFactory(named.name()), target, named.name(), "from factory '" + named.name() + "'");
        } else if (actor.actorClass() == null) {
            throw new IllegalArgumentException("it never started and was not spawned from a handler or a named"
                    + " factory, so " + revision + " has nothing to create it from");
        } else if (actor.lambda()) {
            throw new IllegalArgumentException("its instance is a lambda (" + actor.actorClass() + "), which no"
                    + " revision can load by name: make the actor a named class with a no-argument constructor,"
                    + " or spawn it from a registered @Factory");
        } else {
            put(actor, ActorClassSource.of(classes, actor.actorClass(), revision, source.origin()), null, null,
                    "re-created from their class");
        }
    }

    private static PluginFactory find(List<PluginFactory> next, String name, boolean handler, String revision) {
        for (PluginFactory candidate : next) {
            if ((handler ? candidate.handlerNames() : candidate.factoryNames()).contains(name)) {
                return candidate;
            }
        }
        throw new IllegalArgumentException((handler ? "handler '" : "factory '") + name + "' is not registered by "
                + revision);
    }

    private void put(DetachedActor actor, FactorySource source, PluginFactory owner, String factoryName,
                     String kind) {
        sources.put(actor.ref(), source);
        if (owner != null) {
            owners.put(actor.ref(), Map.entry(owner, factoryName));
        }
        kinds.merge(kind, 1, Integer::sum);
    }

    /** Why some actors cannot move; empty when every one can. */
    List<String> failures() {
        return failures;
    }

    /** The source of each actor on the next revision. */
    Map<ActorRef, FactorySource> sources() {
        return sources;
    }

    /** Attaches the moved actors to the next revision's services, so that they stop or move with them. */
    void attachAll() {
        owners.forEach((actor, owner) -> owner.getKey().adopt(actor, owner.getValue()));
    }

    /** How many actors of each kind move, e.g. {@code 4 handler actors, 2 from factory 'kv.auditor'}. */
    String summary() {
        if (kinds.isEmpty()) {
            return "no actors";
        }
        List<String> parts = new ArrayList<>();
        kinds.forEach((kind, count) -> parts.add(count + " " + kind));
        return String.join(", ", parts);
    }
}
