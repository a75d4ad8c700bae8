package io.troupe.sample.wordcount;

/**
 * The request a {@link WordCountActor} sends to one {@link ChunkCounter} child.
 *
 * <p>Parent and child live in this bundle, so a plugin-private record is fine here; messages that
 * leave the bundle are {@link io.troupe.api.Message}s, {@code byte[]} or {@link io.troupe.api.Failure}s.
 *
 * <p><b>Threading:</b> immutable.
 *
 * @param requestId which request of the parent this chunk belongs to
 * @param index     the chunk's position within that request
 * @param text      the chunk, cut between words
 */
record CountChunk(long requestId, int index, String text) {
}
