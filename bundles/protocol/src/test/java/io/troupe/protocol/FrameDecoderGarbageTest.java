package io.troupe.protocol;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.zip.CRC32C;

import org.junit.jupiter.api.Test;

/**
 * Seeded, bounded random input: the decoder answers with a frame, {@code null} or a
 * {@link FrameException}, never anything else, and never consumes bytes it did not decode.
 */
class FrameDecoderGarbageTest {

    private static final long SEED = 0x7120_1129L;

    @Test
    void randomBytesGiveOnlyNullOrAFrameException() {
        Random random = new Random(SEED);
        for (int i = 0; i < 20_000; i++) {
            byte[] garbage = new byte[random.nextInt(80)];
            random.nextBytes(garbage);
            Outcome outcome = decodeAll(garbage, random.nextBoolean() ? 4096 : FrameDecoder.DEFAULT_MAX_FRAME_BYTES);
            assertTrue(outcome.frames.isEmpty(), () -> "random bytes decoded as a frame: " + hex(garbage));
        }
    }

    @Test
    void randomBodiesBehindAPlausibleLengthGiveOnlyNullOrAFrameException() {
        Random random = new Random(SEED + 1);
        for (int i = 0; i < 20_000; i++) {
            int length = FrameDecoder.MIN_LENGTH + random.nextInt(200);
            byte[] body = new byte[random.nextInt(length + 8)];
            random.nextBytes(body);
            byte[] garbage = ByteBuffer.allocate(4 + body.length).putInt(length).put(body).array();
            Outcome outcome = decodeAll(garbage, FrameDecoder.DEFAULT_MAX_FRAME_BYTES);
            assertEquals(List.of(), outcome.frames, () -> "random body decoded as a frame: " + hex(garbage));
        }
    }

    /** A valid checksum over random bytes reaches the version and structure checks. */
    @Test
    void randomBodiesWithAValidChecksumGiveAFaithfulFrameOrAFrameException() {
        Random random = new Random(SEED + 2);
        Set<ErrorCode> seen = EnumSet.noneOf(ErrorCode.class);
        int decoded = 0;
        for (int i = 0; i < 20_000; i++) {
            byte[] name = randomName(random);
            byte[] content = new byte[random.nextInt(20)];
            random.nextBytes(content);
            RawFrame raw = new RawFrame()
                    .version(random.nextInt(8) == 0 ? random.nextInt(256) : 1)
                    .type(random.nextInt(4) == 0 ? random.nextInt(256) : 1 + random.nextInt(9))
                    .flags(random.nextInt(0x10000))
                    .corrId(random.nextLong())
                    .name(name)
                    .content(content);
            if (random.nextInt(4) == 0) {
                raw.nameLen(random.nextInt(0x10000));
            }
            if (random.nextInt(4) == 0) {
                raw.contentLen(random.nextInt(30));
            }
            byte[] wire = raw.bytes();
            try {
                Frame frame = new FrameDecoder().decode(ByteBuffer.wrap(wire));
                decoded++;
                byte[] reencoded = FrameDecoderTest.encode(frame);
                wire[6] = 0; // flags are not part of a Frame; the encoder writes 0
                wire[7] = 0;
                fixCrc(wire);
                assertArrayEquals(wire, reencoded, "a decoded frame re-encodes to the same bytes");
            } catch (FrameException e) {
                seen.add(e.code());
            }
        }
        assertEquals(EnumSet.of(ErrorCode.VERSION_UNSUPPORTED, ErrorCode.FRAME_MALFORMED), seen);
        assertTrue(decoded > 1000, "enough valid frames were generated: " + decoded);
    }

    @Test
    void aValidStreamWithRandomBytesFlippedDecodesOnlyFramesThatWereSent() {
        List<Frame> sent = FrameDecoderTest.frames().filter(f -> f.name().length() < 100).toList();
        byte[] stream = FrameDecoderTest.concat(sent);
        Random random = new Random(SEED + 3);
        for (int i = 0; i < 3_000; i++) {
            byte[] mutated = stream.clone();
            for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
                mutated[random.nextInt(mutated.length)] ^= (byte) (1 + random.nextInt(255));
            }
            if (random.nextBoolean()) {
                mutated = Arrays.copyOf(mutated, random.nextInt(mutated.length));
            }
            Outcome outcome = decodeAll(mutated, FrameDecoder.DEFAULT_MAX_FRAME_BYTES);
            assertEquals(sent.subList(0, outcome.frames.size()), outcome.frames,
                    "the frames before the first damaged one, and nothing else");
            assertTrue(outcome.frames.size() < sent.size(), "the damage is noticed");
        }
    }

    private record Outcome(List<Frame> frames, FrameException failure) {
    }

    /** Decodes until null or a failure; anything other than a FrameException fails the test. */
    private static Outcome decodeAll(byte[] bytes, int maxFrameBytes) {
        FrameDecoder decoder = new FrameDecoder(maxFrameBytes);
        ByteBuffer input = ByteBuffer.wrap(bytes);
        List<Frame> frames = new ArrayList<>();
        while (true) {
            int before = input.position();
            try {
                Frame frame = decoder.decode(input);
                if (frame == null) {
                    assertEquals(before, input.position(), "null consumes nothing");
                    return new Outcome(frames, null);
                }
                assertEquals(FrameDecoderTest.encode(frame).length, input.position() - before,
                        "a frame consumes exactly its bytes");
                frames.add(frame);
            } catch (FrameException e) {
                assertEquals(before, input.position(), "a failure consumes nothing");
                return new Outcome(frames, e);
            } catch (RuntimeException | Error e) {
                fail("decoding " + hex(bytes) + " threw " + e, e);
            }
        }
    }

    private static byte[] randomName(Random random) {
        return switch (random.nextInt(3)) {
            case 0 -> new byte[0];
            case 1 -> ("n" + random.nextInt(1000)).getBytes(UTF_8);
            default -> {
                byte[] bytes = new byte[1 + random.nextInt(6)];
                random.nextBytes(bytes);
                yield bytes;
            }
        };
    }

    private static void fixCrc(byte[] wire) {
        CRC32C crc = new CRC32C();
        crc.update(wire, 4, wire.length - 8);
        ByteBuffer.wrap(wire).putInt(wire.length - 4, (int) crc.getValue());
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }
}
