package io.troupe.host.plugin;

import java.util.Optional;
import java.util.Set;

import io.troupe.api.ActorRef;
import io.troupe.host.actor.ActorSystem;
import io.troupe.host.actor.FactoryResolver;
import io.troupe.host.timer.Scheduler;

/**
 * Where the runtime's handlers and named factories come from: which actor serves a message name for a
 * tenant, and which factory a name spawns ({@link FactoryResolver}). Two kinds exist: the whiteboard of
 * plugin services in the server ({@link PluginDirectory}) and the registrations of an application on the
 * embedded runtime ({@link CodeDirectory}). Both create their actors through {@link PluginFactory}, so a
 * handler behaves the same in either: one actor (or {@link ActorPool}) per tenant, created on first use
 * and again after it stopped, within the tenant's policy; the actors of a name that goes away stop, and
 * requests still queued for them fail with {@code no.handler}.
 *
 * <pre>
 *   RuntimeCore: new ActorSystem(workers, timer, directory, ...)   the system resolves names through it
 *                directory.open(system, timer)                     then it may create actors
 *                ... handler(tenant, name), resolve(name, tenant)  from any thread
 *                directory.close()                                 before the system shuts down
 * </pre>
 *
 * <p><b>Threading:</b> {@link #open} and {@link #close} from the thread that starts and stops the runtime;
 * every other method from any thread, actor turns included, without blocking.
 */
public interface ActorDirectory extends FactoryResolver {

    /** Starts serving: actors are created in {@code system}; {@code scheduler} runs delayed work (swap grace). */
    void open(ActorSystem system, Scheduler scheduler);

    /** Stops serving: every actor created from the directory's factories is asked to stop. */
    void close();

    /**
     * The tenant's actor for the handler of {@code messageName}, if a handler serves it and the tenant may
     * use it; otherwise empty, as if no handler served the name.
     *
     * @throws io.troupe.api.TroupeException {@code tenant.limit.actors} when the tenant's handler actor does
     *         not exist yet and the tenant is at its actor limit
     */
    Optional<ActorRef> handler(String tenant, String messageName);

    /** Message names served by handlers now. */
    Set<String> handlerNames();

    /** Factory names registered now. */
    Set<String> factoryNames();

    /**
     * Forgets every handler actor and pool of {@code tenant}, so that its next request starts fresh ones
     * (the actor system stops the old ones: {@link ActorSystem#stopTenant}).
     */
    void forgetTenant(String tenant);

    /** The actor pools of poolable handlers, for the monitor that sizes them. */
    ActorPools pools();
}
