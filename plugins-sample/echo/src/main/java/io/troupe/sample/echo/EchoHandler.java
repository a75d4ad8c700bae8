package io.troupe.sample.echo;

import org.osgi.service.component.annotations.Component;

import io.troupe.api.Actor;
import io.troupe.api.ActorFactory;
import io.troupe.api.Failure;
import io.troupe.api.Handler;
import io.troupe.api.Message;

/**
 * The {@code echo} handler: replies to every {@link Message} with exactly the bytes it received.
 *
 * <p>Registering it is the one annotation pair below: Declarative Services publishes this class as an
 * {@link ActorFactory} service with the property {@code troupe.handler=echo}, and the runtime creates
 * one echo actor per tenant from it. Stopping this bundle withdraws the service, and with it the
 * handler.
 *
 * <p><b>Threading:</b> {@link #create()} may be called from any runtime thread, concurrently; it keeps
 * no state. Each actor it returns runs on one worker at a time and is stateless too.
 */
@Component(service = ActorFactory.class)
@Handler("echo")
public final class EchoHandler implements ActorFactory {

    @Override
    public Actor create() {
        return (ctx, message) -> {
            if (message instanceof Message request) {
                ctx.reply(request.content());
            } else {
                ctx.reply(Failure.badRequest("echo expects a Message, got " + message.getClass().getName()));
            }
        };
    }
}
