/**
 * Plugins as the runtime sees them: the whiteboard of {@link io.troupe.api.ActorFactory} services, the
 * handler actors and actor pools created from them per tenant, and hot swaps. Private to the host
 * bundle.
 *
 * <pre>
 *  plugin bundle: &#64;Component &#64;Handler("kv.put") / &#64;Factory("kv.auditor") / &#64;Poolable
 *    └► ActorFactory service ──(framework thread, ServiceTracker)──► PluginDirectory
 *                                                                      └► PluginFactory (one per service)
 *  TroupeRuntime.handler(tenant, name)   lock-free lookup in immutable maps, republished on change
 *    └► PluginFactory.handlerActor(tenant, system): spawned on first use (again after it stopped):
 *         one top-level actor "handler:kv.put" per tenant, or an ActorPool of them (PoolBounds)
 *  ctx.spawn("kv.auditor")  ActorSystem ─► FactoryResolver = PluginDirectory.resolve ─► PluginFactory
 *
 *  ActorPool (an ActorRef): route each message to the least-loaded member that is not stalled;
 *    the monitor thread samples it (PoolSample) and grows or shrinks it (ActorPools lists them)
 *
 *  service removed: its actors stop, queued requests fail with no.handler
 *
 *  ActorDirectory: where the runtime core finds handlers and factories, either
 *    PluginDirectory (the OSGi whiteboard, in the server) or CodeDirectory (registrations in code, on
 *    the embedded runtime io.troupe.runtime.Troupe); both hold PluginFactory objects, whose
 *    CodeProvider is a PluginService (the OSGi part) or the application's code
 * </pre>
 *
 * <h2>Hot swap</h2>
 * When the deployer updates a plugin bundle, {@link io.troupe.host.plugin.PluginSwaps} coordinates the
 * swap: before the update every actor of the old revision's code detaches and exports its state; after
 * it, {@link io.troupe.host.plugin.SwapPlan} finds how each is re-created on the new revision (the
 * service for the same handler or factory name, or the actor's own class through {@link
 * io.troupe.host.plugin.ActorClassSource}), and the swap commits when every actor imported its state,
 * or aborts and the deployer restores the old jar. The steps inside each actor are {@code
 * io.troupe.host.actor.CellSwap}'s. The lifecycle an instance sees during a swap is documented on
 * {@link io.troupe.api.Actor} and in the README's plugin guide.
 *
 * <h2>Threading</h2>
 * Service events arrive on framework threads and are serialised by the tracker; lookups ({@code
 * handler}, {@code resolve}) are lock-free reads from any thread, actor turns included. A pool's send
 * path is lock-free; its changes are serialised by a monitor the send path never takes, and its
 * sampling and reaping run on the monitor thread. A swap's {@code begin}, {@code complete} and {@code end}
 * run on the deployer's thread, which is where the blocking waits for actors happen, never on a runtime
 * thread.
 */
package io.troupe.host.plugin;
