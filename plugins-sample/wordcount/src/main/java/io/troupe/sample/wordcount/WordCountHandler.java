package io.troupe.sample.wordcount;

import org.osgi.service.component.annotations.Component;

import io.troupe.api.Actor;
import io.troupe.api.ActorFactory;
import io.troupe.api.Handler;

/**
 * The {@code wordcount} handler: the runtime creates one {@link WordCountActor} per tenant from it.
 *
 * <p><b>Threading:</b> {@link #create()} may be called from any runtime thread, concurrently; this
 * class keeps no state, and every call returns a new actor.
 */
@Component(service = ActorFactory.class)
@Handler("wordcount")
public final class WordCountHandler implements ActorFactory {

    @Override
    public Actor create() {
        return new WordCountActor();
    }
}
