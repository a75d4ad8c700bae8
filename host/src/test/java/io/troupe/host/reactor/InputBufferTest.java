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
    void shrinksBackToItsInitialSizeOnceEmpty() throws IOException {
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
    void startsNoLargerThanItsLimit() {
        assertEquals(1024, new InputBuffer(InputBuffer.DEFAULT_INITIAL_CAPACITY, 1024).capacity());
    }
}
