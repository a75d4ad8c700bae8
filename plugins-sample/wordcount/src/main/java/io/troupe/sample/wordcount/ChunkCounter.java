package io.troupe.sample.wordcount;

import io.troupe.api.Actor;
import io.troupe.api.ActorContext;
import io.troupe.api.Failure;

/**
 * A short-lived child that counts the words of one {@link CountChunk}, sends a {@link ChunkCounted}
 * receipt to its parent and stops.
 *
 * <p><b>Threading:</b> an actor: runs on one worker at a time; it has no state.
 */
final class ChunkCounter implements Actor {

    @Override
    public void receive(ActorContext ctx, Object message) {
        if (message instanceof CountChunk chunk) {
            long words = Words.count(chunk.text());
            ctx.parent().tell(new ChunkCounted(chunk.requestId(), chunk.index(), words), ctx.self());
            ctx.stop();
        } else {
            ctx.reply(Failure.badRequest("a chunk counter only counts chunks sent by the wordcount handler"));
        }
    }
}
