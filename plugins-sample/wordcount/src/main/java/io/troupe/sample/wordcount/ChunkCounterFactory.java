package io.troupe.sample.wordcount;

import org.osgi.service.component.annotations.Component;

import io.troupe.api.Actor;
import io.troupe.api.ActorFactory;
import io.troupe.api.Factory;

/**
 * Registers {@link ChunkCounter} as the factory {@value #NAME}, so that the wordcount handler spawns
 * its children by name ({@code ctx.spawn("wordcount.chunk")}) and the runtime records that name as
 * their origin.
 *
 * <p><b>Threading:</b> {@link #create()} may be called from any runtime thread, concurrently; this
 * class keeps no state.
 */
@Component(service = ActorFactory.class)
@Factory(ChunkCounterFactory.NAME)
public final class ChunkCounterFactory implements ActorFactory {

    /** The factory name the chunk counters are registered under. */
    public static final String NAME = "wordcount.chunk";

    @Override
    public Actor create() {
        return new ChunkCounter();
    }
}
