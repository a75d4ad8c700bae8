package io.troupe.host.reactor;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;

/**
 * A connection's read buffer: a heap {@link ByteBuffer} that starts small, doubles when the handler
 * leaves it full, never exceeds a limit, and falls back to its initial size once empty: at once
 * when it had grown beyond twice that size, so that one large message does not pin a large buffer
 * for the connection's lifetime; after {@value #SHRINK_AFTER} deliveries in a row that would each
 * have fitted in the initial size when it had doubled once, so that a client that keeps sending
 * messages a little larger than the initial size (4 KiB payloads) does not pay a grow, a copy and
 * an extra read for every one of them.
 *
 * <pre>
 *  write mode between reads:  [ unconsumed bytes | free space ]
 *                             0             position       capacity
 *  read mode during onRead:   [ consumed | remaining ]          (flip, handler advances position)
 *                             0       position      limit
 * </pre>
 *
 * <p><b>Threading:</b> confined to the connection's loop.
 */
final class InputBuffer {

    static final int DEFAULT_INITIAL_CAPACITY = 4096;
    /** Deliveries in a row that fit in the initial buffer before a grown one is let go. */
    static final int SHRINK_AFTER = 16;

    private final int maxCapacity;
    private ByteBuffer initial;
    private ByteBuffer buffer;
    /** Deliveries in a row, while grown, that would have fitted in the initial buffer. */
    private int smallDeliveries;

    InputBuffer(int initialCapacity, int maxCapacity) {
        if (initialCapacity < 1 || maxCapacity < 1) {
            throw new IllegalArgumentException("capacities must be positive, got " + initialCapacity
                    + " and " + maxCapacity);
        }
        this.initial = ByteBuffer.allocate(Math.min(initialCapacity, maxCapacity));
        this.maxCapacity = maxCapacity;
        this.buffer = initial;
    }

    /**
     * Makes room for at least one more byte, doubling the buffer (up to the limit) when it is full.
     *
     * @return false when the buffer is full at its limit: the handler consumed nothing
     */
    boolean ensureSpace() {
        if (buffer.hasRemaining()) {
            return true;
        }
        int capacity = buffer.capacity();
        if (capacity >= maxCapacity) {
            return false;
        }
        ByteBuffer larger = ByteBuffer.allocate((int) Math.min(2L * capacity, maxCapacity));
        buffer.flip();
        larger.put(buffer);
        initial.clear();
        buffer = larger;
        return true;
    }

    /** Reads once from {@code channel} into the free space; returns what {@code read} returned. */
    int readFrom(ReadableByteChannel channel) throws IOException {
        return channel.read(buffer);
    }

    boolean isFull() {
        return !buffer.hasRemaining();
    }

    boolean isEmpty() {
        return buffer.position() == 0;
    }

    /** Unconsumed bytes. */
    int size() {
        return buffer.position();
    }

    int capacity() {
        return buffer.capacity();
    }

    /** Switches to read mode for the handler; {@link #afterRead()} must follow. */
    ByteBuffer flipForRead() {
        return buffer.flip();
    }

    /**
     * Keeps what the handler left, back in write mode; shrinks to the initial size when empty, as the
     * class comment says.
     */
    void afterRead() {
        int delivered = buffer.limit();
        buffer.compact();
        if (buffer == initial) {
            return;
        }
        smallDeliveries = delivered <= initial.capacity() ? smallDeliveries + 1 : 0;
        boolean large = buffer.capacity() > 2 * initial.capacity();
        if (buffer.position() == 0 && (large || smallDeliveries >= SHRINK_AFTER)) {
            buffer = initial;
            smallDeliveries = 0;
        }
    }

    /** Drops every unconsumed byte and any grown buffer. */
    void clear() {
        initial.clear();
        buffer = initial;
        smallDeliveries = 0;
    }

    /** Lets go of the memory once the connection is closed; the buffer stays empty and full. */
    void release() {
        initial = ByteBuffer.allocate(0);
        buffer = initial;
    }
}
