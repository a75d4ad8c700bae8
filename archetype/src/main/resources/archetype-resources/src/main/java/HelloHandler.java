package ${package};

import org.osgi.service.component.annotations.Component;

import io.troupe.api.AbstractActor;
import io.troupe.api.Actor;
import io.troupe.api.ActorContext;
import io.troupe.api.ActorFactory;
import io.troupe.api.ActorRef;
import io.troupe.api.ChildStopped;
import io.troupe.api.Failure;
import io.troupe.api.Handler;
import io.troupe.api.Message;
import io.troupe.api.Receive;

/**
 * The {@value #MESSAGE} handler: for each request naming someone, it spawns a greeter child by its
 * factory name ({@link GreeterFactory#NAME}) and forwards the request to it; the child replies to the
 * requester and stops.
 *
 * <p>{@code @Component} and {@code @Handler} are all the registration there is: bnd writes a Declarative
 * Services descriptor that publishes this class as an {@link ActorFactory} service with the property
 * {@code troupe.handler=}{@value #MESSAGE}, and the runtime creates one handler actor per tenant from it.
 *
 * <p><b>Threading:</b> {@link #create()} may be called from any runtime thread, concurrently; it keeps no
 * state. Each actor it returns receives one message at a time.
 */
@Component(service = ActorFactory.class)
@Handler(HelloHandler.MESSAGE)
public final class HelloHandler implements ActorFactory {

    /** The message name clients send; the content is the name to greet, in UTF-8. */
    public static final String MESSAGE = "${messageName}";

    @Override
    public Actor create() {
        return new HelloActor();
    }

    /**
     * One tenant's handler actor, written as a {@link Receive}: one case per kind of message. A named class
     * with a no-argument constructor, not a lambda, so that a hot swap of the plugin can move it to the new
     * version.
     *
     * <p><b>Threading:</b> an actor: one message at a time.
     */
    static final class HelloActor extends AbstractActor {

        @Override
        protected Receive createReceive() {
            return Receive.match(Message.class, HelloActor::greet)
                    .match(ChildStopped.class, (ctx, stopped) -> { }) // a greeter stopped after its reply
                    .build(); // anything else is unhandled: a dead letter with reason "unhandled"
        }

        private static void greet(ActorContext ctx, Message request) {
            String name = request.text().strip();
            if (name.isEmpty()) {
                ctx.reply(Failure.badRequest(MESSAGE + " expects a name to greet, got nothing"));
                return;
            }
            ActorRef greeter = ctx.spawn(GreeterFactory.NAME);
            ctx.forward(greeter); // the greeter replies to the requester, not to this actor
        }
    }
}
