package io.troupe.benchmarks.durable.plugin;

import java.nio.charset.StandardCharsets;

import io.troupe.api.Actor;
import io.troupe.api.ActorContext;
import io.troupe.api.Failure;
import io.troupe.api.Message;

/**
 * The durability benchmark's counter, like the counter sample's {@code counter.add}: every request
 * adds 1 to a running total (the load generator's payload is random bytes, not an amount) and is
 * answered with the new total as decimal ASCII. This class is the "durability off" variant: it does
 * not implement {@link io.troupe.api.state.Durable}, so the runtime never stores it;
 * {@link DurableBenchCounter} is the same counter made durable.
 *
 * <p>The total is exported as a {@link Long} (so that a hot swap and the store keep it) and imported
 * from one; anything else is refused with the type it got.
 *
 * <p>This class and the others of its package run inside the Troupe installation, in the bundle
 * {@code BenchPluginJar} makes: they may use only the Java platform and the Troupe API.
 *
 * <p><b>Threading:</b> an actor: one message at a time, on one worker at a time; the total needs no
 * synchronisation.
 */
public class BenchCounter implements Actor {

    private long total;

    @Override
    public final void receive(ActorContext ctx, Object message) {
        if (!(message instanceof Message)) {
            ctx.reply(Failure.badRequest("the bench counter expects a Message, got " + message.getClass().getName()));
            return;
        }
        total++;
        ctx.reply(Long.toString(total).getBytes(StandardCharsets.US_ASCII));
    }

    @Override
    public final Object exportState(ActorContext ctx) {
        return total;
    }

    /** @throws IllegalArgumentException when {@code state} is neither null nor a {@link Long} */
    @Override
    public final void importState(ActorContext ctx, Object state) {
        if (state == null) {
            total = 0;
        } else if (state instanceof Long value) {
            total = value;
        } else {
            throw new IllegalArgumentException("the bench counter imports a java.lang.Long total, got "
                    + state.getClass().getName());
        }
    }
}
