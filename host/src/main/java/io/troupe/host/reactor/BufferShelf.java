package io.troupe.host.reactor;

import java.nio.ByteBuffer;

/**
 * A few empty heap buffers an IO loop keeps for its TLS connections' ciphertext: a connection takes
 * one when it has bytes to hold and puts it back as soon as they are gone, so that a request-reply
 * exchange reuses the same buffers instead of allocating (and zeroing) two packet-sized buffers per
 * round trip, while an idle connection holds none.
 *
 * <p><b>Threading:</b> confined to the owning loop.
 */
final class BufferShelf {

    static final int CAPACITY = 8;

    private final ByteBuffer[] shelf = new ByteBuffer[CAPACITY];
    private int count;

    /** An empty buffer (write mode) of at least {@code size} bytes: a kept one, or a new one. */
    ByteBuffer take(int size) {
        while (count > 0) {
            ByteBuffer kept = shelf[--count];
            shelf[count] = null;
            if (kept.capacity() >= size) {
                return kept.clear();
            }
        }
        return ByteBuffer.allocate(size);
    }

    /** Keeps {@code buffer}, which its last holder no longer touches, if there is room. */
    void give(ByteBuffer buffer) {
        if (count < CAPACITY) {
            shelf[count++] = buffer;
        }
    }
}
