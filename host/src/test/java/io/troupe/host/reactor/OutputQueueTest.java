package io.troupe.host.reactor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.GatheringByteChannel;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.troupe.testsupport.TestClient;

class OutputQueueTest {

    /** A socket stub that takes at most {@code capacity} bytes per write and records each call. */
    private static final class ThrottledChannel implements GatheringByteChannel {
        final ByteArrayOutputStream written = new ByteArrayOutputStream();
        final List<Integer> buffersPerCall = new ArrayList<>();
        final List<Long> bytesOfferedPerCall = new ArrayList<>();
        int capacity;

        ThrottledChannel(int capacity) {
            this.capacity = capacity;
        }

        @Override
        public long write(ByteBuffer[] sources, int offset, int length) {
            buffersPerCall.add(length);
            long offered = 0;
            for (int i = offset; i < offset + length; i++) {
                offered += sources[i].remaining();
            }
            bytesOfferedPerCall.add(offered);
            long total = 0;
            for (int i = offset; i < offset + length && total < capacity; i++) {
                ByteBuffer source = sources[i];
                int n = (int) Math.min(source.remaining(), capacity - total);
                byte[] chunk = new byte[n];
                source.get(chunk);
                written.writeBytes(chunk);
                total += n;
            }
            return total;
        }

        @Override
        public long write(ByteBuffer[] sources) {
            return write(sources, 0, sources.length);
        }

        @Override
        public int write(ByteBuffer source) {
            return (int) write(new ByteBuffer[] {source}, 0, 1);
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
        }
    }

    private static ByteBuffer bytes(String text) {
        return ByteBuffer.wrap(text.getBytes());
    }

    @Test
    void writesEverythingInOrderAcrossPartialWrites() throws IOException {
        OutputQueue queue = new OutputQueue();
        ThrottledChannel channel = new ThrottledChannel(3);
        assertEquals(3, queue.add(bytes("abc")));
        queue.add(bytes("defg"));
        assertEquals(10, queue.add(bytes("hij")));

        while (!queue.isEmpty()) {
            assertTrue(queue.writeTo(channel) > 0);
        }
        assertEquals("abcdefghij", channel.written.toString());
        assertEquals(0, queue.pending());
    }

    @Test
    void gathersSeveralBuffersIntoOneWrite() throws IOException {
        OutputQueue queue = new OutputQueue();
        ThrottledChannel channel = new ThrottledChannel(Integer.MAX_VALUE);
        for (int i = 0; i < 10; i++) {
            queue.add(bytes("x" + i));
        }
        assertEquals(20, queue.writeTo(channel));
        assertEquals(List.of(10), channel.buffersPerCall);
    }

    @Test
    void gathersAtMostABoundedNumberOfBuffersAndBytesPerWrite() throws IOException {
        OutputQueue queue = new OutputQueue();
        ThrottledChannel channel = new ThrottledChannel(Integer.MAX_VALUE);
        for (int i = 0; i < OutputQueue.MAX_GATHER + 5; i++) {
            queue.add(bytes("y"));
        }
        queue.writeTo(channel);
        assertEquals(OutputQueue.MAX_GATHER, channel.buffersPerCall.get(0));

        byte[] big = TestClient.pattern(OutputQueue.MAX_BYTES_PER_WRITE + 1000, 3);
        queue.writeTo(channel); // the remaining five
        queue.add(ByteBuffer.wrap(big));
        assertEquals(OutputQueue.MAX_BYTES_PER_WRITE, queue.writeTo(channel));
        assertEquals(1000, queue.writeTo(channel));
        byte[] all = channel.written.toByteArray();
        byte[] tail = java.util.Arrays.copyOfRange(all, all.length - big.length, all.length);
        assertArrayEquals(big, tail, "the clipped buffer resumes where it stopped");
    }

    @Test
    void aDirectWriteRemainderGoesOutFirst() throws IOException {
        OutputQueue queue = new OutputQueue();
        ThrottledChannel channel = new ThrottledChannel(100);
        ByteBuffer first = bytes("__rest");
        first.position(2);
        assertEquals(4, queue.addRemainder(first));
        queue.add(bytes("-later"));
        queue.writeTo(channel);
        assertEquals("rest-later", channel.written.toString());
    }

    @Test
    void clearDropsEverythingPending() throws IOException {
        OutputQueue queue = new OutputQueue();
        ThrottledChannel channel = new ThrottledChannel(2);
        queue.add(bytes("abcdef"));
        queue.add(bytes("ghi"));
        queue.writeTo(channel);
        queue.clear();
        assertTrue(queue.isEmpty());
        assertEquals(0, queue.pending());
        assertEquals(0, queue.writeTo(channel));
        assertFalse(channel.written.toString().contains("g"));
    }

    @Test
    void aGroupGoesOutWholeInOrderAndIsCountedAsItsBytes() throws IOException {
        OutputQueue queue = new OutputQueue();
        ThrottledChannel channel = new ThrottledChannel(4);
        queue.add(bytes("<"));
        assertEquals(1 + 9, queue.add(new ByteBuffer[] {bytes("head"), bytes("body"), bytes("!")}, 9));
        queue.add(bytes(">"));

        while (!queue.isEmpty()) {
            assertTrue(queue.writeTo(channel) > 0);
        }
        assertEquals("<headbody!>", channel.written.toString());
        assertEquals(0, queue.pending());
    }

    @Test
    void aGroupWaitsForRoomRatherThanBeingSplitAcrossBatches() throws IOException {
        OutputQueue queue = new OutputQueue();
        ThrottledChannel channel = new ThrottledChannel(Integer.MAX_VALUE);
        for (int i = 0; i < OutputQueue.MAX_GATHER - 1; i++) {
            queue.add(bytes("y"));
        }
        queue.add(new ByteBuffer[] {bytes("a"), bytes("b"), bytes("c")}, 3);

        queue.writeTo(channel);
        queue.writeTo(channel);
        assertEquals(List.of(OutputQueue.MAX_GATHER - 1, 3), channel.buffersPerCall, "the group in the next batch");
        assertTrue(channel.written.toString().endsWith("yabc"));
    }

    @Test
    void aGroupLargerThanABatchIsWrittenWholeAllTheSame() throws IOException {
        OutputQueue queue = new OutputQueue();
        ThrottledChannel channel = new ThrottledChannel(Integer.MAX_VALUE);
        ByteBuffer[] group = new ByteBuffer[OutputQueue.MAX_GATHER + 6];
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < group.length; i++) {
            group[i] = bytes(Integer.toString(i % 10));
            expected.append(i % 10);
        }
        queue.add(group, group.length);

        assertEquals(group.length, queue.writeTo(channel));
        assertEquals(List.of(group.length), channel.buffersPerCall);
        assertEquals(expected.toString(), channel.written.toString());
    }

    @Test
    void clearDropsQueuedGroupsAndTheirCount() throws IOException {
        OutputQueue queue = new OutputQueue();
        queue.add(new ByteBuffer[] {bytes("abc"), bytes("de")}, 5);
        queue.add(bytes("f"));
        queue.clear();
        assertTrue(queue.isEmpty());
        assertEquals(0, queue.pending());
        assertEquals(0, queue.writeTo(new ThrottledChannel(10)));
    }
}
