package io.troupe.itests.plugins;

import io.troupe.api.Actor;
import io.troupe.api.ActorContext;

/**
 * A short-lived child of {@link TreeRoot}, named {@value #NAME}: spawned for every put, it stops on
 * its first message, so that swaps under load meet actors that start and stop while they run.
 *
 * <p><b>Threading:</b> an actor: one call at a time.
 */
public final class TreeEphemeral implements Actor {

    public static final String NAME = "ephemeral";

    @Override
    public void receive(ActorContext ctx, Object message) {
        ctx.stop();
    }
}
