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
    void aBufferGrownOnceShrinksBackAfterEnoughSmallDeliveries() throws IOException {
        InputBuffer buffer = new InputBuffer(16, 1024);
        ReadableByteChannel channel = source(new byte[20]);
        for (int i = 0; i < 2; i++) {
            buffer.ensureSpace();
            buffer.readFrom(channel);
            buffer.flipForRead();
            buffer.afterRead();
        }
        assertEquals(32, buffer.capacity());
        assertEquals(20, buffer.size());
        deliverAll(buffer);
        assertTrue(buffer.isEmpty());
        assertEquals(32, buffer.capacity(), "a large delivery was just seen: the grown buffer stays");

        for (int i = 1; i < InputBuffer.SHRINK_AFTER; i++) {
            deliverAll(buffer);
            assertEquals(32, buffer.capacity(), "after " + i + " small deliveries");
        }
        deliverAll(buffer);
        assertEquals(16, buffer.capacity(), "back to the initial size after enough small deliveries");
    }

    @Test
    void aBufferGrownBeyondTwiceItsSizeShrinksBackOnceEmpty() throws IOException {
        InputBuffer buffer = new InputBuffer(8, 1024);
        ReadableByteChannel channel = source(new byte[20]);
        for (int i = 0; i < 3; i++) {
            buffer.ensureSpace();
            buffer.readFrom(channel);
            buffer.flipForRead();
            buffer.afterRead();
        }
        assertEquals(32, buffer.capacity());
        assertEquals(20, buffer.size());

        ByteBuffer readable = buffer.flipForRead();
        readable.position(readable.position() + 5);
        buffer.afterRead();
        assertEquals(32, buffer.capacity(), "still holding 15 bytes");

        readable = buffer.flipForRead();
        readable.position(readable.limit());
        buffer.afterRead();
        assertTrue(buffer.isEmpty());
        assertEquals(8, buffer.capacity());
    }

    @Test
    void keepsTheGrownBufferWhileLargeDeliveriesKeepComing() throws IOException {
        InputBuffer buffer = new InputBuffer(8, 1024);
        ReadableByteChannel channel = source(new byte[12 * 10 * InputBuffer.SHRINK_AFTER]);
        for (int message = 0; message < 10 * InputBuffer.SHRINK_AFTER; message++) {
            // a 12-byte message: more than the initial 8 bytes
            while (buffer.size() < 12) {
                buffer.ensureSpace();
                buffer.readFrom(channel);
                if (buffer.size() < 12) {
                    deliverNone(buffer);
                }
            }
            ByteBuffer readable = buffer.flipForRead();
            readable.position(readable.position() + 12);
            buffer.afterRead();
            assertEquals(16, buffer.capacity(), "message " + message + " did not shrink and regrow the buffer");
        }
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
        assertEquals(1024, new InputBuffer(InputBuffer.DEFAULT_INITIAL_CAPACITY, 1024).capacity());
    }
}
