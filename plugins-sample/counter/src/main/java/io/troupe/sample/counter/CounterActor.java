package io.troupe.sample.counter;

import java.nio.charset.StandardCharsets;

import io.troupe.api.Actor;
import io.troupe.api.ActorContext;
import io.troupe.api.Failure;
import io.troupe.api.Message;
import io.troupe.api.TroupeException;

/**
 * One tenant's counter: answers {@value #ADD}, {@value #GET} and {@value #VERSION} requests with UTF-8
 * text, or with a {@code bad.request} {@link Failure}.
 *
 * <p>It never throws from {@link #receive}: a failure would make its supervisor restart it, and a
 * fresh instance would start again at 0.
 *
 * <p><b>Threading:</b> an actor: runs on one worker at a time, so its {@link Counter} needs no
 * synchronisation.
 */
final class CounterActor implements Actor {

    /** Adds the decimal integer in the content; replies with the new total. */
    static final String ADD = "counter.add";
    /** Replies with the total; the content is ignored. */
    static final String GET = "counter.get";
    /** Replies with the plugin's Bundle-Version; the content is ignored. */
    static final String VERSION = "counter.version";

    private final Counter counter = new Counter();
    private final String version;

    /** @param version what {@value #VERSION} answers: the version of the bundle that created this actor */
    CounterActor(String version) {
        this.version = version;
    }

    @Override
    public void receive(ActorContext ctx, Object message) {
        if (!(message instanceof Message request)) {
            ctx.reply(Failure.badRequest("counter expects a Message, got " + message.getClass().getName()));
            return;
        }
        switch (request.name()) {
            case ADD -> add(ctx, request);
            case GET -> ctx.reply(utf8(Long.toString(counter.total())));
            case VERSION -> ctx.reply(utf8(version));
            default -> ctx.reply(Failure.badRequest("counter does not handle '" + request.name() + "'; it handles "
                    + ADD + ", " + GET + " and " + VERSION));
        }
    }

    private void add(ActorContext ctx, Message request) {
        long total;
        try {
            total = counter.add(request.text());
        } catch (TroupeException e) {
            ctx.reply(new Failure(e.code(), e.detail()));
            return;
        }
        ctx.reply(utf8(Long.toString(total)));
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
