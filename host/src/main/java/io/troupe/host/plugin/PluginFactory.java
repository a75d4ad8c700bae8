package io.troupe.host.plugin;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import io.troupe.api.ActorFactory;
import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.host.actor.ActorSystem;
import io.troupe.host.actor.FactorySource;
import io.troupe.host.actor.StopReason;

/**
 * One {@link ActorFactory} registered under handler and factory names, by a plugin bundle's service or
 * in code on the embedded runtime (its {@link CodeProvider}), with its per-tenant handler actors and
 * every actor created from it, so that they all stop when the service goes away (or the registration
 * is withdrawn), or move to the next revision's service when the plugin is swapped
 * (see {@link PluginSwaps}). While a swap is pending the factory is <i>retired</i>: its actors are
 * detached, and handler actors for new tenants are created detached too.
 *
 * <p>A poolable service (see {@link PoolBounds}) serves each tenant with an {@link ActorPool} instead
 * of one actor; the pool's members are attached here like handler actors, so that they are swapped
 * and stopped with the service, and the pools follow the service's successor on a swap. A tenant
 * keeps the kind of handler it has across a swap (a pool stays a pool, with the new revision's
 * bounds if it declares any; a single actor stays single) until it stops.
 *
 * <p>Nothing here depends on OSGi: the embedded runtime uses this class on a plain class path, and
 * only {@link PluginService} knows the service behind a plugin's factory.
 *
 * <p><b>Threading:</b> every method from any thread; the actor sets are concurrent.
 */
final class PluginFactory implements FactorySource, MemberSource {

    private final CodeProvider provider;
    private final ActorFactory factory;
    private final List<String> handlerNames;
    private final List<String> factoryNames;
    /** The tenants the provider limits the names to. */
    private final TenantScope scope;
    private final ConcurrentHashMap<String, ActorRef> handlerActors = new ConcurrentHashMap<>();
    /** Every live actor created from this service, with the factory name it came from ("" for handlers). */
    private final ConcurrentHashMap<ActorRef, String> attached = new ConcurrentHashMap<>();
    private volatile boolean retired;
    /** The next revision's service for this one's handlers, once a swap moved them there; else null. */
    private volatile PluginFactory successor;
    /** Set when a swap to this service's revision was refused; see {@link #refuse}. */
    private volatile boolean refused;
    /** The pool bounds when the handler is poolable, {@code null} when it is served by one actor per tenant. */
    private final PoolBounds poolBounds;
    private final ActorPools pools;
    /** See {@link #codeLoader()}. */
    private final ClassLoader codeLoader;

    /**
     * @param provider   who provides the code: a plugin's service or the application
     * @param poolBounds the pool bounds of a poolable handler, {@code null} for one actor per tenant
     * @param pools      where pools register for the monitor; only used with {@code poolBounds}
     */
    PluginFactory(CodeProvider provider, ActorFactory factory, List<String> handlerNames,
                  List<String> factoryNames, PoolBounds poolBounds, ActorPools pools) {
        this.provider = provider;
        this.poolBounds = handlerNames.isEmpty() ? null : poolBounds;
        this.pools = pools;
        this.factory = factory;
        this.handlerNames = List.copyOf(handlerNames);
        this.factoryNames = List.copyOf(factoryNames);
        this.scope = provider.scope();
        this.codeLoader = provider.codeLoader(factory);
    }

    @Override
    public ActorFactory factory() {
        return factory;
    }

    /** The class loader of the provider's code ({@link CodeProvider#codeLoader}): the revision its swaps move. */
    @Override
    public ClassLoader codeLoader() {
        return codeLoader;
    }

    @Override
    public String origin() {
        return handlerNames.isEmpty() ? "factory:" + factoryNames.get(0) : "handler:" + handlerNames.get(0);
    }

    /** The plugin's symbolic name and version; empty for code registered in code (the embedded runtime). */
    @Override
    public String pluginName() {
        return provider instanceof CodeProvider.InCode ? "" : provider.description();
    }

    @Override
    public void attach(ActorRef actor) {
        attached.put(actor, "");
    }

    @Override
    public void detach(ActorRef actor) {
        attached.remove(actor);
        handlerActors.values().remove(actor);
    }

    String symbolicName() {
        return provider.symbolicName();
    }

    CodeProvider provider() {
        return provider;
    }

    /** Whether {@code tenant} may use this plugin's handlers and factories (its {@value TenantScope#HEADER}). */
    boolean serves(String tenant) {
        return scope.serves(tenant);
    }

    /** The tenants the plugin is limited to, for log lines. */
    TenantScope scope() {
        return scope;
    }

    /**
     * Forgets {@code tenant}'s handler actor (or pool) so that its next request creates a fresh one;
     * a pool is closed. The actors themselves are stopped by the caller.
     */
    void forgetTenant(String tenant) {
        ActorRef actor = handlerActors.remove(tenant);
        if (actor instanceof ActorPool pool && pool.isFedBy(this)) {
            pool.close();
        }
    }

    boolean isRetired() {
        return retired;
    }

    /**
     * Marks this service as being swapped out: its actors wait, detached, for the next revision, and
     * handler actors for new tenants are spawned detached too.
     */
    void retire() {
        successor = null;
        retired = true;
    }

    /** After a committed swap: new tenants of this (retired) service's handler are served by {@code next}. */
    void succeed(PluginFactory next) {
        successor = next;
    }

    /** The next revision's service, once a committed swap replaced this one; else null. */
    PluginFactory successor() {
        return successor;
    }

    /** Once a swap replaced this service, the next revision's service for its handler. */
    @Override
    public FactorySource current() {
        PluginFactory heir = successor;
        return heir == null || heir.handlerNames().isEmpty() && !handlerNames.isEmpty() ? this : heir.current();
    }

    /**
     * Makes {@code actor} the tenant's handler actor unless another live one is; returns the one that
     * serves the tenant.
     */
    ActorRef claimHandler(String tenant, ActorRef actor) {
        return handlerActors.compute(tenant, (key, current) ->
                current != null && !current.isStopped() ? current : actor);
    }

    /** The live actors created from this service. */
    List<ActorRef> actors() {
        return List.copyOf(attached.keySet());
    }

    /**
     * After a committed swap: the handler actors (and actor pools) {@code previous} kept per tenant are
     * this service's now, and pools take their new members from it.
     */
    void adoptHandlers(PluginFactory previous) {
        previous.handlerActors.forEach((tenant, actor) -> {
            if (actor instanceof ActorPool pool) {
                pool.moveTo(this, poolBounds);
            }
            handlerActors.put(tenant, actor);
        });
    }

    /** A committed swap moved {@code actor} here, created from this service's factory name {@code name}. */
    void adopt(ActorRef actor, String factoryName) {
        attached.put(actor, factoryName);
        if (actor.isStopped()) {
            attached.remove(actor); // it stopped meanwhile and may have detached before this put
        }
    }

    /** The swap was called off before the service was ever routed to: it is never used. */
    void refuse() {
        refused = true;
    }

    boolean isRefused() {
        return refused;
    }

    /** The swap that retired this service was refused: it serves again as before. */
    void unretire() {
        retired = false;
    }

    /** Whether this service serves the handler or factory names of {@code names}, all of them. */
    boolean serves(Collection<String> names) {
        return names.stream().allMatch(name -> handlerNames.contains(name) || factoryNames.contains(name));
    }

    List<String> handlerNames() {
        return handlerNames;
    }

    List<String> factoryNames() {
        return factoryNames;
    }

    String bundle() {
        return provider.description();
    }

    /** A source whose actors report the given factory name as their origin. */
    FactorySource asFactory(String factoryName) {
        return new NamedFactorySource(this, factoryName);
    }

    /**
     * The actor that serves {@code messageName}, one of this factory's handler names, for {@code tenant}:
     * {@link #handlerActor}, if the tenant may use it (the provider's {@link TenantScope} includes the tenant,
     * and the tenant's policy allows the name); otherwise empty, as if no handler served the name.
     *
     * @throws io.troupe.api.TroupeException {@code tenant.limit.actors} when the tenant's handler actor does
     *         not exist yet and the tenant is at its actor limit
     */
    Optional<ActorRef> handlerFor(String tenant, String messageName, ActorSystem system) {
        if (!serves(tenant) || (!tenant.isEmpty() && !system.tenantPolicy(tenant).allows(messageName))) {
            return Optional.empty();
        }
        return Optional.of(handlerActor(tenant, system));
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
        PluginFactory next = successor;
        if (next != null) {
            return next.handlerActor(tenant, system); // a caller that looked the name up before the swap
        }
        // while retired, the actor system starts a new actor detached: it waits for the swap's decision
        return handlerActors.compute(tenant, (key, current) -> {
            if (current != null && !current.isStopped()) {
                return current;
            }
            if (poolBounds != null) {
                return new ActorPool(system, pools, this, poolBounds,
                        handlerNames.get(0), tenant);
            }
            ActorOptions options = ActorOptions.defaults().withName(origin() + "@" + tenant);
            return system.spawn(this, options, tenant);
        });
    }

    @Override
    public ActorRef spawnMember(ActorSystem system, String tenant, ActorOptions options) {
        return system.spawn(this, options, tenant); // detached while a swap of its code is open
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
        return origin() + " from " + bundle();
    }
}
