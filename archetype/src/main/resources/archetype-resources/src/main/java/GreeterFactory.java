package ${package};

import java.nio.charset.StandardCharsets;

import org.osgi.service.component.annotations.Component;

import io.troupe.api.Actor;
import io.troupe.api.ActorContext;
import io.troupe.api.ActorFactory;
import io.troupe.api.Factory;
import io.troupe.api.Message;

/**
 * Makes {@link Greeter}s, registered under the factory name {@value #NAME}: any actor, of this plugin or
 * another, can spawn one with {@code ctx.spawn(GreeterFactory.NAME)}.
 *
 * <p><b>Threading:</b> {@link #create()} may be called from any runtime thread, concurrently; it keeps no
 * state.
 */
@Component(service = ActorFactory.class)
@Factory(GreeterFactory.NAME)
public final class GreeterFactory implements ActorFactory {

    /** The factory name. */
    public static final String NAME = HelloHandler.MESSAGE + ".greeter";

    @Override
    public Actor create() {
        return new Greeter();
    }

    /**
     * Replies to one request with a greeting, then stops.
     *
     * <p><b>Threading:</b> an actor: one message at a time.
     */
    static final class Greeter implements Actor {

        @Override
        public void receive(ActorContext ctx, Object message) {
            String name = ((Message) message).text().strip();
            ctx.reply(greeting(name).getBytes(StandardCharsets.UTF_8));
            ctx.stop();
        }

        /** What the plugin answers {@code name}. */
        static String greeting(String name) {
            return "Hello, " + name + "!";
        }
    }
}
