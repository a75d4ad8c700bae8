package io.troupe.itests.plugins;

import java.nio.charset.StandardCharsets;

import io.troupe.api.Actor;
import io.troupe.api.ActorContext;

/**
 * Answers every request with its revision's version, and refuses any state handed over.
 *
 * <p><b>Threading:</b> an actor.
 */
public final class StateRefusingActor implements Actor {

    /** What the refusal says, so that the test can find it in the log. */
    public static final String MESSAGE = "this revision refuses the state of the previous one on purpose";

    private final String version;

    StateRefusingActor(String version) {
        this.version = version;
    }

    @Override
    public void receive(ActorContext ctx, Object message) {
        ctx.reply(("refusing revision " + version).getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public void importState(ActorContext ctx, Object state) {
        throw new IllegalStateException(MESSAGE + " (was given " + state + ")");
    }
}
