package io.troupe.itests.plugins;

import io.troupe.api.AbstractActor;
import io.troupe.api.Receive;

/**
 * The watched worker: answers {@code ping} with {@code pong}.
 *
 * <p><b>Threading:</b> an actor: one turn at a time.
 */
public final class WatchWorker extends AbstractActor {

    /** The factory name the worker is spawned by. */
    public static final String FACTORY = "watch.worker";

    @Override
    protected Receive createReceive() {
        return Receive.matchEquals("ping", (ctx, ping) -> ctx.reply("pong")).build();
    }
}
