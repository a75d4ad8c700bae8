/**
 * Durable actor state: an actor opts in with {@link io.troupe.api.state.Durable}, and the runtime keeps
 * its state, exactly what {@link io.troupe.api.Actor#exportState} returns, in a
 * {@link io.troupe.api.state.StateStore}, so that it outlives the process. On start, or when its tenant
 * or plugin comes back, the actor is created with its last stored state through
 * {@link io.troupe.api.Actor#importState}.
 *
 * <pre>
 * public final class Counter implements Actor, Durable {
 *     private long total;
 *
 *     public Durability durability() { return Durability.everyTurn(); }   // the default
 *     public void receive(ActorContext ctx, Object message) { total += (Long) message; ctx.reply(total); }
 *     public Object exportState(ActorContext ctx) { return total; }
 *     public void importState(ActorContext ctx, Object state) { total = (Long) state; }
 * }
 * </pre>
 *
 * <p><b>Threading:</b> see each type; a store is called from any runtime thread.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.1.0")
package io.troupe.api.state;
