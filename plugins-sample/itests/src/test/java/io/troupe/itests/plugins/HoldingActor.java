package io.troupe.itests.plugins;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.troupe.api.Actor;
import io.troupe.api.ActorContext;
import io.troupe.api.Failure;
import io.troupe.api.Message;

/**
 * {@value #WAIT} blocks until its bundle stops (at most {@value #MAX_HOLD_SECONDS} s), then replies
 * {@code released}; {@value #QUICK} replies {@code quick} at once.
 *
 * <p><b>Threading:</b> an actor; holding blocks one worker thread on purpose.
 */
public final class HoldingActor implements Actor {

    public static final String WAIT = "hold.wait";
    public static final String QUICK = "hold.quick";
    static final int MAX_HOLD_SECONDS = 10;

    private final CountDownLatch stopping;

    HoldingActor(CountDownLatch stopping) {
        this.stopping = stopping;
    }

    @Override
    public void receive(ActorContext ctx, Object message) throws InterruptedException {
        String name = message instanceof Message request ? request.name() : String.valueOf(message);
        if (WAIT.equals(name)) {
            boolean released = stopping.await(MAX_HOLD_SECONDS, TimeUnit.SECONDS);
            ctx.reply((released ? "released" : "not released").getBytes(StandardCharsets.UTF_8));
        } else if (QUICK.equals(name)) {
            ctx.reply("quick".getBytes(StandardCharsets.UTF_8));
        } else {
            ctx.reply(Failure.badRequest("unexpected " + name));
        }
    }
}
