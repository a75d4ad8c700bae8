package io.troupe.host.reactor;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;

/**
 * The bytes a connection has received and its handler has not consumed yet. Most reads need none:
 * the connection reads into its loop's shared read buffer ({@link EventLoop#readBuffer()}), the
 * handler consumes whole messages from it, and nothing is left. Only what the handler leaves (the
 * start of a message, or input held back while reading is suspended) is {@linkplain #adopt copied}
 * into a buffer of the connection's own, which further reads fill, which doubles when full up to a
 * limit, and which is let go as soon as it is empty again. So an idle connection holds no buffer. The
 * buffers come from, and go back to, a shelf of the loop's ({@link BufferShelf#forInput()}): a client
 * sending messages larger than the loop's read buffer one after the other reuses the same few buffers
 * instead of allocating (and zeroing) one, twice the message's size, per message.
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

    /** The size of a connection's own buffer when it first needs one for a few bytes. */
    static final int DEFAULT_INITIAL_CAPACITY = 4096;
    /** Stands for "no buffer"; never read into, flipped or compacted. */
    private static final ByteBuffer NONE = ByteBuffer.allocate(0);

    private final int initialCapacity;
    private final int maxCapacity;
    private final BufferShelf shelf;
    private ByteBuffer buffer = NONE;

    /** With a shelf of its own: for a connection alone, or a test. */
    InputBuffer(int initialCapacity, int maxCapacity) {
        this(initialCapacity, maxCapacity, BufferShelf.forInput());
    }

    /** @param shelf where buffers come from and go back to: the loop's, shared by its connections */
    InputBuffer(int initialCapacity, int maxCapacity, BufferShelf shelf) {
        if (initialCapacity < 1 || maxCapacity < 1) {
            throw new IllegalArgumentException("capacities must be positive, got " + initialCapacity
                    + " and " + maxCapacity);
        }
        this.initialCapacity = Math.min(initialCapacity, maxCapacity);
        this.maxCapacity = maxCapacity;
        this.shelf = shelf;
    }

    /**
     * Makes room for at least one more byte: allocates the initial buffer when there is none, and
     * doubles a full one (up to the limit), keeping its bytes.
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
        ByteBuffer larger = take(capacity == 0 ? initialCapacity : (int) Math.min(2L * capacity, maxCapacity));
        if (buffer != NONE) {
            larger.put(buffer.flip());
            shelf.give(buffer);
        }
        buffer = larger;
        return true;
    }

    /**
     * Keeps the bytes the handler left in {@code readable}, a buffer lent for one read, in a buffer of
     * this connection's own; with room for as many again, within the limit. Call only while empty.
     */
    void adopt(ByteBuffer readable) {
        int left = readable.remaining();
        if (left == 0) {
            return;
        }
        if (!isEmpty()) {
            throw new IllegalStateException("adopting " + left + " bytes over " + size() + " unconsumed ones");
        }
        int capacity = (int) Math.min(maxCapacity, Math.max(initialCapacity, 2L * left));
        buffer = take(Math.max(capacity, left)).put(readable);
    }

    /**
     * An empty buffer of at least {@code size} bytes from the shelf, within the limit (a kept buffer may be
     * larger than asked, never larger than the limit, which the connection's input must not exceed).
     */
    private ByteBuffer take(int size) {
        ByteBuffer taken = shelf.take(size);
        if (taken.capacity() > Math.max(size, maxCapacity)) {
            shelf.give(taken); // kept for a connection with a higher limit
            return ByteBuffer.allocate(size);
        }
        return taken;
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

    /** The capacity of the connection's own buffer; 0 while it has none. */
    int capacity() {
        return buffer.capacity();
    }

    /** Switches to read mode for the handler; {@link #afterRead()} must follow. Only while not empty. */
    ByteBuffer flipForRead() {
        return buffer.flip();
    }

    /** Keeps what the handler left, back in write mode; lets the buffer go when nothing is left. */
    void afterRead() {
        buffer.compact();
        if (buffer.position() == 0) {
            release();
        }
    }

    /** Drops every unconsumed byte and the buffer. */
    void clear() {
        release();
    }

    private void release() {
        if (buffer != NONE) {
            shelf.give(buffer);
            buffer = NONE;
        }
    }
}
