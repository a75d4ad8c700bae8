package io.troupe.protocol;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Valid input: round trips and streams cut anywhere. Faults are in {@link FrameDecoderFaultTest}. */
class FrameDecoderTest {

    static Stream<Frame> frames() {
        byte[] allByteValues = new byte[256];
        for (int i = 0; i < 256; i++) {
            allByteValues[i] = (byte) i;
        }
        return Stream.of(
                Frame.hello(1, "acme", "s3cr3t-token"),
                Frame.welcome(1, "7f3a-session"),
                Frame.send("echo", "fire and forget".getBytes(UTF_8)),
                Frame.send(99, "echo", new byte[0]),
                Frame.request(2, "echo", allByteValues),
                Frame.request(3, "", new byte[0]),
                Frame.reply(2, "echo", allByteValues),
                Frame.error(2, ErrorCode.NO_HANDLER, "no handler named 'echo' \u2014 d\u00e9sol\u00e9"),
                Frame.error(0, ErrorCode.SERVER_SHUTDOWN, ""),
                Frame.ping(4, new byte[] {0, 0, 0}),
                Frame.pong(4, new byte[] {0, 0, 0}),
                Frame.bye(),
                Frame.request(-1L, "max.corr.id", new byte[] {1}),
                Frame.request(Long.MAX_VALUE, "max.signed", new byte[] {1}),
                Frame.request(Long.MIN_VALUE, "high.bit", new byte[] {1}),
                Frame.send("\u4e16\u754c/\u00fcber/\ud83d\ude00/\u0000nul", "\ud83d\ude00".getBytes(UTF_8)),
                Frame.send("n".repeat(Frame.MAX_NAME_BYTES), new byte[] {42}));
    }

    @ParameterizedTest
    @MethodSource("frames")
    void everyFrameRoundTripsThroughEncoderAndDecoder(Frame frame) {
        ByteBuffer wire = FrameEncoder.encode(frame);

        Frame decoded = new FrameDecoder().decode(wire);

        assertEquals(frame, decoded);
        assertEquals(0, wire.remaining(), "the whole frame is consumed");
    }

    @Test
    void theHexDumpOfTheSpecificationDecodesToItsRequest() {
        byte[] wire = RawFrame.hex("0000001c 01 04 0000 0102030405060708 0004 6563686f 00000002 6869 3817efef");

        assertEquals(Frame.request(0x0102030405060708L, "echo", "hi".getBytes(UTF_8)),
                new FrameDecoder().decode(ByteBuffer.wrap(wire)));
    }

    @Test
    void flagsAreIgnoredWhenRead() {
        byte[] wire = RawFrame.of(FrameType.SEND).flags(0xBEEF).name("echo").content(new byte[] {1}).bytes();

        assertEquals(Frame.send("echo", new byte[] {1}), new FrameDecoder().decode(ByteBuffer.wrap(wire)));
    }

    @Test
    void aFrameOfExactlyTheDefaultLimitDecodes() {
        int contentLength = FrameDecoder.DEFAULT_MAX_FRAME_BYTES - FrameDecoder.MIN_LENGTH - "big".length();
        Frame frame = Frame.reply(5, "big", randomBytes(contentLength, 1));

        assertEquals(frame, new FrameDecoder().decode(FrameEncoder.encode(frame)));
    }

    @Test
    void aBigFrameDecodesOnceTheLimitIsRaisedAndIsRejectedBefore() {
        Frame frame = Frame.reply(5, "big", randomBytes(3 * 1024 * 1024, 2));
        FrameDecoder decoder = new FrameDecoder();

        FrameException tooLarge = assertThrows(FrameException.class, () -> decoder.decode(FrameEncoder.encode(frame)));
        assertEquals(ErrorCode.FRAME_TOO_LARGE, tooLarge.code());

        decoder.setMaxFrameBytes(4 * 1024 * 1024);
        assertEquals(frame, decoder.decode(FrameEncoder.encode(frame)));
    }

    @Test
    void theDecodedContentIsACopyThatOutlivesTheReadBuffer() {
        ByteBuffer input = FrameEncoder.encode(Frame.send("a", new byte[] {1, 2, 3}));

        Frame frame = new FrameDecoder().decode(input);
        input.clear();
        input.put(new byte[input.capacity()]);

        assertArrayEquals(new byte[] {1, 2, 3}, frame.content());
    }

    @Test
    void everyPrefixOfAFrameIsIncompleteAndConsumesNothing() {
        byte[] wire = encode(Frame.request(77, "echo", "hello".getBytes(UTF_8)));
        FrameDecoder decoder = new FrameDecoder();

        for (int n = 0; n < wire.length; n++) {
            ByteBuffer prefix = ByteBuffer.wrap(wire, 0, n);
            assertNull(decoder.decode(prefix), "prefix of " + n + " bytes");
            assertEquals(0, prefix.position());
            assertEquals(n, prefix.limit());
        }
    }

    @Test
    void decodingStopsAtTheEndOfTheFrameAndLeavesTheNextBytesInPlace() {
        byte[] first = encode(Frame.send("a", new byte[] {1}));
        byte[] second = encode(Frame.send("b", new byte[] {2}));
        ByteBuffer input = ByteBuffer.allocate(first.length + 10).put(first).put(second, 0, 10).flip();
        FrameDecoder decoder = new FrameDecoder();

        assertEquals(Frame.send("a", new byte[] {1}), decoder.decode(input));
        assertEquals(first.length, input.position());
        assertNull(decoder.decode(input));
        assertEquals(first.length, input.position());
    }

    @Test
    void aDirectLittleEndianBufferWithAFrameAtAnOffsetDecodesAndKeepsItsOrder() {
        Frame frame = Frame.request(0x1122334455667788L, "echo", "x".getBytes(UTF_8));
        byte[] wire = encode(frame);
        ByteBuffer input = ByteBuffer.allocateDirect(wire.length + 7).order(ByteOrder.LITTLE_ENDIAN);
        input.put(new byte[5]).put(wire).flip().position(5);

        assertEquals(wire.length - 4, FrameDecoder.peekLength(input));
        assertEquals(frame, new FrameDecoder().decode(input));
        assertEquals(5 + wire.length, input.position());
        assertEquals(ByteOrder.LITTLE_ENDIAN, input.order());
    }

    @Test
    void peekLengthReadsTheUnsignedLengthWithoutConsuming() {
        ByteBuffer input = ByteBuffer.wrap(RawFrame.hex("ffffffff 00"));

        assertEquals(0xFFFF_FFFFL, FrameDecoder.peekLength(input));
        assertEquals(0, input.position());
        assertEquals(-1, FrameDecoder.peekLength(ByteBuffer.wrap(new byte[3])));
    }

    @Test
    void aStreamSplitAtEveryByteOffsetDecodesToTheSameFrames() {
        List<Frame> sent = frames().filter(f -> f.name().length() < 100).toList();
        byte[] stream = concat(sent);

        for (int cut = 0; cut <= stream.length; cut++) {
            assertEquals(sent, feed(stream, cut, stream.length), "cut at " + cut);
        }
    }

    @Test
    void aStreamSplitAtEveryPairOfOffsetsDecodesToTheSameFrames() {
        List<Frame> sent = List.of(Frame.hello(1, "acme", "t"), Frame.request(2, "echo", new byte[] {1, 2}),
                Frame.ping(3, new byte[0]), Frame.bye());
        byte[] stream = concat(sent);

        for (int first = 0; first <= stream.length; first++) {
            for (int second = first; second <= stream.length; second++) {
                assertEquals(sent, feed(stream, first, second, stream.length), "cuts at " + first + ", " + second);
            }
        }
    }

    @Test
    void aStreamFedByteByByteDecodesToTheSameFrames() {
        List<Frame> sent = frames().toList();
        byte[] stream = concat(sent);

        assertEquals(sent, feed(stream, IntStream.rangeClosed(1, stream.length).toArray()));
    }

    @Test
    void aStreamFedInRandomChunksDecodesToTheSameFrames() {
        List<Frame> sent = frames().toList();
        byte[] stream = concat(sent);
        Random random = new Random(42);

        for (int round = 0; round < 50; round++) {
            List<Integer> cuts = new ArrayList<>();
            for (int at = 0; at < stream.length; ) {
                at = Math.min(stream.length, at + 1 + random.nextInt(40_000));
                cuts.add(at);
            }
            assertEquals(sent, feed(stream, cuts.stream().mapToInt(Integer::intValue).toArray()), "round " + round);
        }
    }

    /**
     * Feeds {@code stream} to one decoder the way a connection does: append what arrived, decode
     * every complete frame, compact, repeat. Each cut is the stream offset at which a read ends.
     */
    static List<Frame> feed(byte[] stream, int... cuts) {
        FrameDecoder decoder = new FrameDecoder();
        ByteBuffer readBuffer = ByteBuffer.allocate(stream.length);
        List<Frame> received = new ArrayList<>();
        int from = 0;
        for (int cut : cuts) {
            readBuffer.put(stream, from, cut - from);
            from = cut;
            readBuffer.flip();
            for (Frame frame = decoder.decode(readBuffer); frame != null; frame = decoder.decode(readBuffer)) {
                received.add(frame);
            }
            readBuffer.compact();
        }
        assertEquals(0, readBuffer.position(), "bytes left over");
        return received;
    }

    static byte[] concat(List<Frame> frames) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        frames.forEach(frame -> out.writeBytes(encode(frame)));
        return out.toByteArray();
    }

    static byte[] encode(Frame frame) {
        return FrameEncoderTest.bytes(FrameEncoder.encode(frame));
    }

    static byte[] randomBytes(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }
}
