package io.troupe.host.reactor;

import java.nio.ByteBuffer;

/**
 * A few empty heap buffers an IO loop keeps for its connections: a connection takes one when it has
 * bytes to hold and puts it back as soon as they are gone, so that a request-reply exchange reuses the
 * same buffers instead of allocating (and zeroing) new ones per round trip, while an idle connection
 * holds none. A loop has one shelf for its TLS connections' ciphertext (packet-sized buffers) and one
 * for the input that outgrew its shared read buffer (the start of a message larger than 64 KiB); the
 * latter keeps buffers up to {@link #MAX_KEPT_INPUT_BYTES} only, so that a loop holds at most a
 * megabyte of them after a burst of large messages, however large {@code maxFrameBytes} is.
 *
 * <p><b>Threading:</b> confined to the owning loop.
 */
final class BufferShelf {

    static final int CAPACITY = 8;
    /** The largest input buffer an input shelf keeps. */
    static final int MAX_KEPT_INPUT_BYTES = 256 * 1024;
    /** Input buffers an input shelf keeps at most: {@value} × 256 KiB is a megabyte. */
    static final int INPUT_CAPACITY = 4;

    private final ByteBuffer[] shelf;
    private final int maxKeptBytes;
    private int count;

    /** A shelf for TLS ciphertext: {@value #CAPACITY} buffers of any size. */
    BufferShelf() {
        this(CAPACITY, Integer.MAX_VALUE);
    }

    /** A shelf of up to {@code capacity} buffers of at most {@code maxKeptBytes} each; larger ones are not kept. */
    BufferShelf(int capacity, int maxKeptBytes) {
        this.shelf = new ByteBuffer[capacity];
        this.maxKeptBytes = maxKeptBytes;
    }

    /** A shelf for input buffers: {@value #INPUT_CAPACITY} of at most {@value #MAX_KEPT_INPUT_BYTES} bytes. */
    static BufferShelf forInput() {
        return new BufferShelf(INPUT_CAPACITY, MAX_KEPT_INPUT_BYTES);
    }

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

    /** Keeps {@code buffer}, which its last holder no longer touches, if there is room and it is not too large. */
    void give(ByteBuffer buffer) {
        if (count < shelf.length && buffer.capacity() <= maxKeptBytes) {
            shelf[count++] = buffer;
        }
    }
}
