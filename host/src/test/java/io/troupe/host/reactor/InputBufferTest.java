package io.troupe.host.reactor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;

import org.junit.jupiter.api.Test;

import io.troupe.testsupport.TestClient;

class InputBufferTest {

    private static ReadableByteChannel source(byte[] bytes) {
        return Channels.newChannel(new ByteArrayInputStream(bytes));
    }

    @Test
    void doublesWhenTheHandlerLeavesItFullAndKeepsTheUnconsumedBytes() throws IOException {
        InputBuffer buffer = new InputBuffer(16, 64);
        byte[] data = TestClient.pattern(40, 7);
        ReadableByteChannel channel = source(data);

        assertTrue(buffer.ensureSpace());
        assertEquals(16, buffer.readFrom(channel));
        assertTrue(buffer.isFull());
        buffer.flipForRead(); // the handler consumes nothing
        buffer.afterRead();

        assertTrue(buffer.ensureSpace());
        assertEquals(32, buffer.capacity());
        assertEquals(16, buffer.readFrom(channel));
        assertTrue(buffer.isFull());
        buffer.flipForRead();
        buffer.afterRead();

        assertTrue(buffer.ensureSpace());
        assertEquals(64, buffer.capacity());
        assertEquals(8, buffer.readFrom(channel));

        ByteBuffer readable = buffer.flipForRead();
        byte[] seen = new byte[readable.remaining()];
        readable.get(seen);
        assertArrayEquals(data, seen);
    }

    @Test
    void refusesToGrowBeyondItsLimit() throws IOException {
        InputBuffer buffer = new InputBuffer(16, 24);
        ReadableByteChannel channel = source(new byte[100]);
        buffer.ensureSpace();
        buffer.readFrom(channel);
        buffer.flipForRead();
        buffer.afterRead();
        assertTrue(buffer.ensureSpace());
        assertEquals(24, buffer.capacity(), "doubling is capped at the limit");
        buffer.readFrom(channel);
        buffer.flipForRead();
        buffer.afterRead();
        assertFalse(buffer.ensureSpace(), "full at the limit: the handler did not consume");
    }

    @Test
    void holdsNoBufferOnceEverythingIsConsumed() throws IOException {
        InputBuffer buffer = new InputBuffer(8, 1024);
        assertEquals(0, buffer.capacity(), "no buffer before the first byte to keep");
        ReadableByteChannel channel = source(new byte[20]);
        for (int i = 0; i < 3; i++) {
            buffer.ensureSpace();
            buffer.readFrom(channel);
            deliverNone(buffer);
        }
        assertEquals(32, buffer.capacity());
        assertEquals(20, buffer.size());

        ByteBuffer readable = buffer.flipForRead();
        readable.position(readable.position() + 5);
        buffer.afterRead();
        assertEquals(15, buffer.size(), "still holding 15 bytes");

        deliverAll(buffer);
        assertTrue(buffer.isEmpty());
        assertEquals(0, buffer.capacity(), "the buffer is let go");
    }

    @Test
    void adoptsWhatTheHandlerLeftOfALentBufferWithRoomForAsMuchAgain() throws IOException {
        InputBuffer buffer = new InputBuffer(16, 1024);
        byte[] data = TestClient.pattern(40, 3);
        ByteBuffer lent = ByteBuffer.wrap(data);
        lent.position(20); // the handler consumed 20 bytes
        buffer.adopt(lent);
        assertEquals(20, buffer.size());
        assertEquals(40, buffer.capacity());
        assertFalse(lent.hasRemaining(), "the lent buffer is consumed");

        ByteBuffer readable = buffer.flipForRead();
        byte[] kept = new byte[readable.remaining()];
        readable.get(kept);
        assertArrayEquals(java.util.Arrays.copyOfRange(data, 20, 40), kept);
        buffer.afterRead();
        assertEquals(0, buffer.capacity());

        buffer.adopt(ByteBuffer.allocate(0));
        assertEquals(0, buffer.capacity(), "nothing left, nothing kept");
    }

    @Test
    void adoptsNoMoreRoomThanTheLimit() {
        InputBuffer buffer = new InputBuffer(16, 24);
        buffer.adopt(ByteBuffer.wrap(new byte[24]));
        assertEquals(24, buffer.capacity());
        assertTrue(buffer.isFull());
        assertFalse(buffer.ensureSpace(), "full at the limit");
    }

    /** A delivery where the handler consumes everything. */
    private static void deliverAll(InputBuffer buffer) {
        ByteBuffer readable = buffer.flipForRead();
        readable.position(readable.limit());
        buffer.afterRead();
    }

    /** A delivery where the handler waits for more bytes. */
    private static void deliverNone(InputBuffer buffer) {
        buffer.flipForRead();
        buffer.afterRead();
    }

    @Test
    void startsNoLargerThanItsLimit() {
        InputBuffer buffer = new InputBuffer(InputBuffer.DEFAULT_INITIAL_CAPACITY, 1024);
        assertTrue(buffer.ensureSpace());
        assertEquals(1024, buffer.capacity());
    }

    @Test
    void theNextLargeMessageReusesTheBufferTheLastOneLeftOnTheLoopsShelf() throws IOException {
        BufferShelf shelf = BufferShelf.forInput();
        InputBuffer first = new InputBuffer(16, 1 << 20, shelf);
        InputBuffer second = new InputBuffer(16, 1 << 20, shelf);
        first.adopt(ByteBuffer.wrap(TestClient.pattern(100, 1)));
        assertEquals(200, first.capacity());
        deliverAll(first);
        assertEquals(0, first.capacity(), "an emptied connection holds no buffer");

        byte[] data = TestClient.pattern(50, 2);
        second.adopt(ByteBuffer.wrap(data));
        assertEquals(200, second.capacity(), "the 200-byte buffer from the shelf, not a new one of 100");
        ByteBuffer readable = second.flipForRead();
        byte[] kept = new byte[readable.remaining()];
        readable.get(kept);
        assertArrayEquals(data, kept, "only the adopted bytes, none of the last message's");
    }

    @Test
    void aLoopKeepsNoInputBufferOverAQuarterMegabyteNorMoreThanFour() {
        BufferShelf shelf = BufferShelf.forInput();
        shelf.give(ByteBuffer.allocate(BufferShelf.MAX_KEPT_INPUT_BYTES + 1));
        assertEquals(1, shelf.take(1).capacity(), "the oversized buffer was not kept");
        for (int i = 0; i < BufferShelf.INPUT_CAPACITY + 1; i++) {
            shelf.give(ByteBuffer.allocate(64 + i));
        }
        int kept = 0;
        while (shelf.take(1).capacity() >= 64) {
            kept++;
        }
        assertEquals(BufferShelf.INPUT_CAPACITY, kept);
    }

    @Test
    void aKeptBufferLargerThanTheConnectionsLimitIsLeftOnTheShelf() {
        BufferShelf shelf = BufferShelf.forInput();
        shelf.give(ByteBuffer.allocate(4096));
        InputBuffer small = new InputBuffer(16, 64, shelf);
        small.adopt(ByteBuffer.wrap(new byte[20]));
        assertEquals(40, small.capacity(), "the connection's input stays within its 64-byte limit");
        assertEquals(4096, shelf.take(1).capacity(), "the larger buffer is still there for another connection");
    }
}
