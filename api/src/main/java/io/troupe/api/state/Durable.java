package io.troupe.api.state;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * Marks an {@link io.troupe.api.Actor} whose state outlives the process: the runtime stores what
 * {@link io.troupe.api.Actor#exportState} returns in the {@link StateStore}, under the actor's
 * {@link StateKey} (its tenant, its origin and its path of names), when {@link #durability()} says, and
 * creates the actor again with it: {@code preStart} first (children and timers are made again), then
 * {@link io.troupe.api.Actor#importState} with the stored state.
 *
 * <p>The state is the swap's state: JDK and API types only (strings, boxed numbers, {@code byte[]},
 * lists, sets, maps, {@code Optional}, {@link io.troupe.api.Message}); anything else, or an
 * {@link io.troupe.api.ActorRef} (a runtime address, meaningless after a restart), makes the write fail
 * with an error naming the actor and the type, and the actor with it, as a failing {@code receive} does.
 * A durable actor needs a stable path: a handler actor has one; an actor it spawns needs a name
 * ({@link io.troupe.api.ActorOptions#withName}), since a derived name carries a runtime id.
 *
 * <pre>
 * public final class Counter implements Actor, Durable {
 *     private long total;
 *     public void receive(ActorContext ctx, Object message) { total += (Long) message; ctx.reply(total); }
 *     public Object exportState(ActorContext ctx) { return total; }
 *     public void importState(ActorContext ctx, Object state) { total = (Long) state; }
 * }
 * </pre>
 *
 * <p><b>Threading:</b> {@link #durability()} is called on the actor's turn, once per instance.
 */
@ConsumerType
public interface Durable {

    /** When the state is written; {@link Durability#everyTurn()} unless overridden. */
    default Durability durability() {
        return Durability.everyTurn();
    }
}
