package io.troupe.distribution.plugins;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import io.troupe.api.Actor;
import io.troupe.api.ActorContext;
import io.troupe.api.Failure;
import io.troupe.api.Message;

/**
 * A tenant's tally, an actor that is <i>not</i> durable: {@value #ADD} adds the decimal number it is sent and
 * answers the new total, {@value #BUMP} (for one-way SENDs) adds it without an answer, and each takes
 * {@value #ADD_MILLIS} ms of CPU, so that bumps sent in a burst wait in its mailbox for a while; {@value #GET}
 * answers the total. Its total
 * lives in memory only, and goes with the tenant when a cluster moves it through {@code exportState} and
 * {@code importState}, the hot swap's state.
 *
 * <p><b>Threading:</b> an actor: one turn at a time.
 */
public final class TallyActor implements Actor {

    static final String ADD = "tally.add";
    static final String BUMP = "tally.bump";
    static final String GET = "tally.get";
    static final long ADD_MILLIS = 3;

    private long total;

    @Override
    public void receive(ActorContext ctx, Object message) {
        if (!(message instanceof Message request)) {
            return;
        }
        if (ADD.equals(request.name()) || BUMP.equals(request.name())) {
            long busyUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ADD_MILLIS);
            while (System.nanoTime() - busyUntil < 0) {
                Thread.onSpinWait();
            }
            total += Long.parseLong(new String(request.content(), StandardCharsets.UTF_8).trim());
            if (ADD.equals(request.name())) {
                ctx.reply(Long.toString(total).getBytes(StandardCharsets.UTF_8));
            }
        } else if (GET.equals(request.name())) {
            ctx.reply(Long.toString(total).getBytes(StandardCharsets.UTF_8));
        } else {
            ctx.reply(Failure.badRequest("tally does not know " + request.name()));
        }
    }

    @Override
    public Object exportState(ActorContext ctx) {
        return total;
    }

    @Override
    public void importState(ActorContext ctx, Object state) {
        total = (Long) state;
    }
}
