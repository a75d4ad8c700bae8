package io.troupe.sample.chat;

import org.osgi.service.component.annotations.Component;

import io.troupe.api.Actor;
import io.troupe.api.ActorFactory;
import io.troupe.api.Handler;

/**
 * The chat handler: one service for the three chat requests, so that the runtime routes all of them
 * to the same {@link ChatActor} of a tenant, which holds that tenant's rooms.
 *
 * <p><b>Threading:</b> {@link #create()} may be called from any runtime thread, concurrently; this
 * class keeps no state, and every call returns a new actor.
 */
@Component(service = ActorFactory.class)
@Handler({ChatActor.JOIN, ChatActor.LEAVE, ChatActor.SAY, ChatActor.HISTORY})
public final class ChatHandler implements ActorFactory {

    @Override
    public Actor create() {
        return new ChatActor();
    }
}
