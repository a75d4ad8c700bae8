package io.troupe.sample.counter;

import java.nio.charset.StandardCharsets;

import org.osgi.framework.Version;

import io.troupe.api.Actor;
import io.troupe.api.ActorContext;
import io.troupe.api.Failure;
import io.troupe.api.Message;
import io.troupe.api.TroupeException;
import io.troupe.api.state.Durable;

/**
 * One tenant's counter: answers {@value #ADD}, {@value #GET} and {@value #VERSION} requests with UTF-8
 * text, or with a {@code bad.request} {@link Failure}.
 *
 * <p>It never throws from {@link #receive}: a failure would make its supervisor restart it, and a
 * fresh instance would start again at 0.
 *
 * <p>The counter is {@link Durable} (every turn): the runtime stores its total before any reply leaves,
 * so a restart of the server, even by {@code kill -9}, gives it back through {@link #importState}
 * (after {@link #preStart}): a total a client was told is never lost.
 *
 * <p>When the plugin is updated in place, the total goes to the new revision's actor through
 * {@link #exportState} and {@link #importState}, as a {@link CounterState} in the format of this
 * actor's major version; either format is imported, and anything else refused, which rolls the
 * update back.
 *
 * <p><b>Threading:</b> an actor: runs on one worker at a time, so its {@link Counter} needs no
 * synchronisation.
 */
final class CounterActor implements Actor, Durable {

    /** Adds the decimal integer in the content; replies with the new total. */
    static final String ADD = "counter.add";
    /** Replies with the total; the content is ignored. */
    static final String GET = "counter.get";
    /** Replies with the plugin's Bundle-Version; the content is ignored. */
    static final String VERSION = "counter.version";

    private final Counter counter = new Counter();
    private final String version;
    private final int stateFormat;

    /**
     * @param version what {@value #VERSION} answers: the version of the bundle that created this actor,
     *                whose major version also chooses the format {@link #exportState} writes
     * @throws IllegalArgumentException if {@code version} is not an OSGi version
     */
    CounterActor(String version) {
        this.version = version;
        this.stateFormat = CounterState.formatWrittenBy(Version.parseVersion(version).getMajor());
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

    /** The total, as a {@link Long} from a 1.x build, as a map {@code {total, format: 2}} from later ones. */
    @Override
    public Object exportState(ActorContext ctx) {
        return CounterState.write(counter.total(), stateFormat);
    }

    /**
     * Takes over the total exported by either format's counter.
     *
     * @throws IllegalArgumentException if {@code state} is in neither format; the total is then unchanged
     */
    @Override
    public void importState(ActorContext ctx, Object state) {
        counter.restore(CounterState.read(state));
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
