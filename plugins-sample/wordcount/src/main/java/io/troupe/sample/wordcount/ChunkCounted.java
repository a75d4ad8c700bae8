package io.troupe.sample.wordcount;

/**
 * The receipt a {@link ChunkCounter} sends to its parent for one {@link CountChunk}.
 *
 * <p><b>Threading:</b> immutable.
 *
 * @param requestId the {@link CountChunk#requestId()} it answers
 * @param index     the {@link CountChunk#index()} it answers
 * @param words     the words in that chunk
 */
record ChunkCounted(long requestId, int index, long words) {
}
