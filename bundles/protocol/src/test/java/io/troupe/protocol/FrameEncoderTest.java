package io.troupe.protocol;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.CRC32C;

import org.junit.jupiter.api.Test;

class FrameEncoderTest {

    @Test
    void aRequestIsEncodedByteForByteAsTheSpecificationLaysItOut() {
        Frame frame = Frame.request(0x0102030405060708L, "echo", "hi".getBytes(UTF_8));

        byte[] expected = RawFrame.hex("""
                0000001c            # length = 22 + 4 + 2
                01                  # version
                04                  # type REQUEST
                0000                # flags
                0102030405060708    # corrId
                0004                # nameLen
                6563686f            # name "echo"
                00000002            # contentLen
                6869                # content "hi"
                3817efef            # CRC-32C of 01 .. 69
                """);

        assertArrayEquals(expected, bytes(FrameEncoder.encode(frame)));
    }

    @Test
    void gatheredBuffersHoldTheSameBytesAsOneBufferAndShareTheContentArray() {
        Random random = new Random(20261204);
        for (int size : new int[] {0, 1, 64, 4096, 65_536, 262_118}) {
            byte[] content = new byte[size];
            random.nextBytes(content);
            for (Frame frame : List.of(Frame.reply(random.nextLong(), "echo", content),
                    Frame.request(7, "n\u00e9", content), Frame.pong(9, content))) {
                ByteBuffer[] gathered = FrameEncoder.encodeGathered(frame);

                assertEquals(3, gathered.length);
                assertSame(content, gathered[1].array(), "the content is wrapped, not copied");
                assertEquals(size, gathered[1].remaining());
                assertEquals(4, gathered[2].remaining(), "the CRC");
                ByteBuffer joined = ByteBuffer.allocate(FrameEncoder.encodedSize(frame));
                for (ByteBuffer part : gathered) {
                    joined.put(part.duplicate());
                }
                assertArrayEquals(bytes(FrameEncoder.encode(frame)), joined.array(), frame.toString());
                assertEquals(frame, new FrameDecoder(300_000).decode(joined.flip()));
            }
        }
    }

    @Test
    void aByeIsTheSmallestFrameOf26Bytes() {
        byte[] expected = RawFrame.hex("00000016 01 09 0000 0000000000000000 0000 00000000 6d561c4a");

        assertArrayEquals(expected, bytes(FrameEncoder.encode(Frame.bye())));
        assertEquals(26, FrameEncoder.encodedSize(Frame.bye()));
    }

    @Test
    void theCrcIsCrc32cOfEveryByteFromVersionThroughContent() {
        Random random = new Random(20261129);
        for (int i = 0; i < 200; i++) {
            byte[] content = new byte[random.nextInt(300)];
            random.nextBytes(content);
            FrameType type = FrameType.values()[random.nextInt(FrameType.values().length)];
            byte[] wire = bytes(FrameEncoder.encode(new Frame(type, random.nextLong(), "n\u00e9" + i, content)));

            CRC32C independent = new CRC32C();
            independent.update(wire, 4, wire.length - 8);
            int written = ByteBuffer.wrap(wire, wire.length - 4, 4).getInt();
            assertEquals((int) independent.getValue(), written);
            assertEquals(wire.length - 4, ByteBuffer.wrap(wire).getInt(), "length counts the bytes after it");
        }
    }

    @Test
    void versionIsOneAndFlagsAreZero() {
        byte[] wire = bytes(FrameEncoder.encode(Frame.ping(9, new byte[] {7})));

        assertEquals(1, wire[4]);
        assertEquals(7, wire[5]);
        assertEquals(0, wire[6]);
        assertEquals(0, wire[7]);
    }

    @Test
    void encodedSizeIsTheSizeOfTheExactBufferForMultiByteNames() {
        Frame frame = Frame.send("\u4e16\u754c\ud83d\ude00", new byte[10]); // 3 + 3 + 4 bytes

        ByteBuffer encoded = FrameEncoder.encode(frame);

        assertEquals(26 + 10 + 10, FrameEncoder.encodedSize(frame));
        assertEquals(FrameEncoder.encodedSize(frame), encoded.capacity());
        assertEquals(0, encoded.position());
        assertEquals(encoded.capacity(), encoded.limit());
    }

    @Test
    void encodingIntoACallersBufferWritesAtItsPositionBigEndianAndLeavesItsByteOrderAlone() {
        Frame frame = Frame.reply(-2L, "sum", new byte[] {4, 2});
        ByteBuffer out = ByteBuffer.allocateDirect(100).order(ByteOrder.LITTLE_ENDIAN);
        out.put((byte) 0x55);

        FrameEncoder.encode(frame, out);

        assertEquals(ByteOrder.LITTLE_ENDIAN, out.order());
        assertEquals(1 + FrameEncoder.encodedSize(frame), out.position());
        out.flip();
        assertEquals(0x55, out.get());
        byte[] written = new byte[out.remaining()];
        out.get(written);
        assertArrayEquals(bytes(FrameEncoder.encode(frame)), written);
    }

    @Test
    void encodingIntoABufferThatIsTooSmallWritesNothing() {
        Frame frame = Frame.request(1, "echo", new byte[10]);
        ByteBuffer out = ByteBuffer.allocate(FrameEncoder.encodedSize(frame) - 1);

        assertThrows(BufferOverflowException.class, () -> FrameEncoder.encode(frame, out));

        assertEquals(0, out.position());
        assertArrayEquals(new byte[out.capacity()], out.array());
    }

    @Test
    void threadsEncodingAtTheSameTimeGetTheSameBytesAsOneThreadAlone() throws Exception {
        List<Frame> frames = new ArrayList<>();
        Random random = new Random(7);
        for (int i = 0; i < 64; i++) {
            byte[] content = new byte[1000 + random.nextInt(5000)];
            random.nextBytes(content);
            frames.add(Frame.request(i, "h" + i, content));
        }
        List<byte[]> expected = frames.stream().map(f -> bytes(FrameEncoder.encode(f))).toList();

        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                results.add(pool.submit(() -> {
                    for (int round = 0; round < 50; round++) {
                        for (int i = 0; i < frames.size(); i++) {
                            if (!Arrays.equals(expected.get(i), bytes(FrameEncoder.encode(frames.get(i))))) {
                                return false;
                            }
                        }
                    }
                    return true;
                }));
            }
            for (Future<Boolean> result : results) {
                assertEquals(true, result.get());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    static byte[] bytes(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }
}
