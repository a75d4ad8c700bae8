package io.troupe.protocol;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * {@link FrameDecoder#next}: large frames taken in as they arrive, with the same frames and the same
 * error codes as {@link FrameDecoder#decode}.
 */
class FrameDecoderNextTest {

    private static final int LIMIT = 1 << 20;

    /** Small and large frames mixed, the large ones on both sides of the threshold. */
    private static List<Frame> mixed() {
        int threshold = FrameDecoder.ASSEMBLE_ABOVE_BYTES;
        return List.of(
                Frame.request(1, "echo", FrameDecoderTest.randomBytes(64, 1)),
                Frame.request(2, "echo", FrameDecoderTest.randomBytes(64 * 1024, 2)),
                Frame.send("\u00fcber", FrameDecoderTest.randomBytes(threshold - 22 - 5, 3)), // exactly the threshold
                Frame.send("\u00fcber", FrameDecoderTest.randomBytes(threshold - 22 - 4, 4)), // one byte above it
                Frame.reply(3, "", FrameDecoderTest.randomBytes(300_000, 5)),
                Frame.ping(4, new byte[0]),
                Frame.request(5, "echo", FrameDecoderTest.randomBytes(4096, 6)));
    }

    @Test
    void aStreamOfLargeAndSmallFramesInRandomChunksGivesTheFramesDecodeGives() {
        List<Frame> sent = mixed();
        byte[] stream = FrameDecoderTest.concat(sent);
        Random random = new Random(7);

        for (int round = 0; round < 40; round++) {
            int maxChunk = round % 2 == 0 ? 100 : 70_000;
            List<Integer> cuts = new ArrayList<>();
            for (int at = 0; at < stream.length; ) {
                at = Math.min(stream.length, at + 1 + random.nextInt(maxChunk));
                cuts.add(at);
            }
            Fed fed = feed(stream, cuts.stream().mapToInt(Integer::intValue).toArray());
            assertEquals(sent, fed.frames, "round " + round);
        }
    }

    @Test
    void theCallerKeepsNoBytesOfALargeFrameWhoseHeaderHasArrived() {
        Frame large = Frame.request(9, "echo", FrameDecoderTest.randomBytes(200_000, 8));
        byte[] stream = FrameDecoderTest.encode(large);
        int[] cuts = new int[stream.length / 1000 + 1];
        for (int i = 0; i < cuts.length; i++) {
            cuts[i] = Math.min(stream.length, (i + 1) * 1000);
        }

        Fed fed = feed(stream, cuts);

        assertEquals(List.of(large), fed.frames);
        assertEquals(0, fed.mostKept, "bytes the caller had to keep between reads");
    }

    @Test
    void aFrameAnnouncedLargeHoldsAnArrayThatGrowsWithWhatArrivesAndEndsAtItsLength() {
        int contentLength = LIMIT - 22 - 4;
        Frame frame = Frame.request(8, "echo", FrameDecoderTest.randomBytes(contentLength, 17));
        byte[] wire = FrameDecoderTest.encode(frame);
        FrameDecoder decoder = new FrameDecoder(LIMIT);

        assertNull(decoder.next(ByteBuffer.wrap(wire, 0, 100)));
        ContentAssembly assembly = decoder.assembly();
        assertEquals(ContentAssembly.INITIAL_BYTES, assembly.capacity(), "a header and 74 bytes of a 1 MiB frame");
        assertNull(decoder.next(ByteBuffer.wrap(wire, 100, 200_000)));
        assertEquals(74 + 200_000, assembly.capacity(), "grown to what is there, being more than twice 64 KiB");
        assertNull(decoder.next(ByteBuffer.wrap(wire, 200_100, 1000)));
        assertEquals(2 * 200_074, assembly.capacity(), "doubled");
        assertEquals(frame, decoder.next(ByteBuffer.wrap(wire, 201_100, wire.length - 201_100)));
    }

    @Test
    void framesUpToTheThresholdAreNeverConsumedBeforeTheyHaveFullyArrived() {
        int threshold = FrameDecoder.ASSEMBLE_ABOVE_BYTES;
        byte[] wire = FrameDecoderTest.encode(Frame.send("a", FrameDecoderTest.randomBytes(threshold - 22 - 1, 9)));
        FrameDecoder decoder = new FrameDecoder(LIMIT);

        for (int n = 0; n < wire.length; n += 97) {
            ByteBuffer prefix = ByteBuffer.wrap(wire, 0, n);
            assertNull(decoder.next(prefix), "prefix of " + n + " bytes");
            assertEquals(0, prefix.position(), "prefix of " + n + " bytes");
        }
    }

    @Test
    void aLargeFrameWithABadChecksumIsFrameCrcOnceItsLastByteArrives() {
        byte[] wire = RawFrame.of(FrameType.REQUEST).name("echo").content(FrameDecoderTest.randomBytes(10_000, 10))
                .corruptCrc().bytes();
        FrameDecoder decoder = new FrameDecoder(LIMIT);

        assertNull(decoder.next(ByteBuffer.wrap(wire, 0, 5000)));
        ByteBuffer rest = ByteBuffer.wrap(wire, 5000, wire.length - 5000 - 1);
        assertNull(decoder.next(rest));
        assertEquals(0, rest.remaining(), "the frame's bytes are taken in as they arrive");

        FrameException crc = assertThrows(FrameException.class,
                () -> decoder.next(ByteBuffer.wrap(wire, wire.length - 1, 1)));
        assertEquals(ErrorCode.FRAME_CRC, crc.code());
    }

    @Test
    void aLargeFrameWithAnUnknownTypeAndABadChecksumIsStillFrameCrcAndIsAwaitedWhole() {
        byte[] wire = RawFrame.of(FrameType.REQUEST).type(0x7F).name("echo")
                .content(FrameDecoderTest.randomBytes(10_000, 11)).corruptCrc().bytes();
        FrameDecoder decoder = new FrameDecoder(LIMIT);

        ByteBuffer half = ByteBuffer.wrap(wire, 0, 5000);
        assertNull(decoder.next(half));
        assertEquals(0, half.position(), "a header that fails a check is not taken in");

        FrameException crc = assertThrows(FrameException.class, () -> decoder.next(ByteBuffer.wrap(wire)));
        assertEquals(ErrorCode.FRAME_CRC, crc.code());
    }

    @Test
    void aLargeFrameWithAnUnknownTypeIsMalformedWithItsCorrIdOnceWhole() {
        byte[] wire = RawFrame.of(FrameType.REQUEST).type(0x7F).corrId(42).name("echo")
                .content(FrameDecoderTest.randomBytes(10_000, 12)).bytes();
        FrameDecoder decoder = new FrameDecoder(LIMIT);

        assertNull(decoder.next(ByteBuffer.wrap(wire, 0, wire.length - 1)));
        FrameException malformed = assertThrows(FrameException.class, () -> decoder.next(ByteBuffer.wrap(wire)));
        assertEquals(ErrorCode.FRAME_MALFORMED, malformed.code());
        assertEquals(42, malformed.corrId());
    }

    @Test
    void aLargeFrameWhoseNameIsNotUtf8IsMalformedOnceWhole() {
        byte[] wire = RawFrame.of(FrameType.SEND).name(new byte[] {(byte) 0xC3, 0x28})
                .content(FrameDecoderTest.randomBytes(10_000, 13)).bytes();
        FrameDecoder decoder = new FrameDecoder(LIMIT);

        ByteBuffer half = ByteBuffer.wrap(wire, 0, 5000);
        assertNull(decoder.next(half));
        assertEquals(0, half.position());
        FrameException malformed = assertThrows(FrameException.class, () -> decoder.next(ByteBuffer.wrap(wire)));
        assertEquals(ErrorCode.FRAME_MALFORMED, malformed.code());
    }

    @Test
    void aLargeFrameAboveTheLimitIsRejectedFromItsLengthAlone() {
        FrameDecoder decoder = new FrameDecoder(8192);

        FrameException tooLarge = assertThrows(FrameException.class,
                () -> decoder.next(ByteBuffer.wrap(RawFrame.lengthPrefix(8193))));
        assertEquals(ErrorCode.FRAME_TOO_LARGE, tooLarge.code());
    }

    @Test
    void decodeIsRefusedWhileNextIsTakingInAFrame() {
        byte[] wire = FrameDecoderTest.encode(Frame.send("a", FrameDecoderTest.randomBytes(10_000, 14)));
        FrameDecoder decoder = new FrameDecoder(LIMIT);

        assertNull(decoder.next(ByteBuffer.wrap(wire, 0, 100)));
        assertThrows(IllegalStateException.class, () -> decoder.decode(ByteBuffer.wrap(wire, 100, 10)));
        assertNotNull(decoder.next(ByteBuffer.wrap(wire, 100, wire.length - 100)));
        assertEquals(Frame.send("b", "x".getBytes(UTF_8)),
                decoder.decode(ByteBuffer.wrap(FrameDecoderTest.encode(Frame.send("b", "x".getBytes(UTF_8))))));
    }

    @Test
    void aDirectLittleEndianBufferFeedsALargeFrame() {
        Frame frame = Frame.request(0x1122334455667788L, "echo", FrameDecoderTest.randomBytes(20_000, 15));
        byte[] wire = FrameDecoderTest.encode(frame);
        FrameDecoder decoder = new FrameDecoder(LIMIT);
        ByteBuffer first = ByteBuffer.allocateDirect(8000).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        first.put(wire, 0, 8000).flip();
        ByteBuffer second = ByteBuffer.allocateDirect(wire.length - 8000);
        second.put(wire, 8000, wire.length - 8000).flip();

        assertNull(decoder.next(first));
        assertEquals(0, first.remaining());
        assertEquals(frame, decoder.next(second));
        assertEquals(0, second.remaining());
    }

    @Test
    void aStreamOfLargeFramesWithRandomBytesFlippedGivesOnlyTheFramesBeforeTheDamage() {
        List<Frame> sent = mixed();
        byte[] stream = FrameDecoderTest.concat(sent);
        Random random = new Random(16);
        for (int i = 0; i < 300; i++) {
            byte[] mutated = stream.clone();
            for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
                mutated[random.nextInt(mutated.length)] ^= (byte) (1 + random.nextInt(255));
            }
            FrameDecoder decoder = new FrameDecoder(LIMIT);
            List<Frame> received = new ArrayList<>();
            ByteBuffer input = ByteBuffer.allocate(mutated.length);
            try {
                for (int at = 0; at < mutated.length; ) {
                    int chunk = Math.min(mutated.length - at, 1 + random.nextInt(20_000));
                    input.put(mutated, at, chunk).flip();
                    at += chunk;
                    for (Frame frame = decoder.next(input); frame != null; frame = decoder.next(input)) {
                        received.add(frame);
                    }
                    input.compact();
                }
            } catch (FrameException expected) {
                // the damage noticed: what came before it must be what was sent
            }
            assertEquals(sent.subList(0, received.size()), received, "round " + i);
            assertTrue(received.size() < sent.size(), "the damage is noticed in round " + i);
        }
    }

    /** What a feed returned, and the most bytes the caller had to keep between two reads. */
    private record Fed(List<Frame> frames, int mostKept) {
    }

    /** Feeds {@code stream} as a connection does (append what arrived, take frames, compact), with {@code next}. */
    private static Fed feed(byte[] stream, int... cuts) {
        FrameDecoder decoder = new FrameDecoder(LIMIT);
        ByteBuffer readBuffer = ByteBuffer.allocate(stream.length);
        List<Frame> received = new ArrayList<>();
        int from = 0;
        int mostKept = 0;
        for (int cut : cuts) {
            readBuffer.put(stream, from, cut - from);
            from = cut;
            readBuffer.flip();
            for (Frame frame = decoder.next(readBuffer); frame != null; frame = decoder.next(readBuffer)) {
                received.add(frame);
            }
            readBuffer.compact();
            mostKept = Math.max(mostKept, readBuffer.position());
        }
        assertEquals(0, readBuffer.position(), "bytes left over");
        return new Fed(received, mostKept);
    }
}
