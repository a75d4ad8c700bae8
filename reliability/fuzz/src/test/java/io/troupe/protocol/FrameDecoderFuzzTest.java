package io.troupe.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Fuzzes {@link FrameDecoder} with the bytes a peer may send: the only acceptable outcomes are a decoded
 * {@link Frame}, "not complete yet" ({@code null}, nothing consumed) or a {@link FrameException} with an error
 * code (nothing consumed). Any other exception, a frame that does not survive re-encoding, or a position moved
 * on a refusal fails.
 *
 * <p>Random bytes rarely carry a correct CRC-32C, so the first input byte picks how the rest is used: as they
 * are, with the length field and checksum made consistent (to reach the structural checks behind them), or as
 * the fields of a frame that is encoded and must decode to itself.
 *
 * <p><b>Threading:</b> one decoder per execution, on the fuzzing thread.
 */
class FrameDecoderFuzzTest {

    private static final int MAX_INPUT = 1 << 16;

    @FuzzTest(maxDuration = "10s")
    void decodesAFrameOrRefusesWithAFrameException(FuzzedDataProvider data) {
        int mode = data.consumeInt(0, 2);
        int limit = data.consumeInt(FrameDecoder.MIN_LENGTH, FrameDecoder.DEFAULT_MAX_FRAME_BYTES);
        boolean direct = data.consumeBoolean();
        FrameDecoder decoder = new FrameDecoder(limit);
        switch (mode) {
            case 0 -> decodeAll(decoder, wrap(data.consumeBytes(MAX_INPUT), direct));
            case 1 -> decodeAll(decoder, wrap(withConsistentLengthAndCrc(data.consumeBytes(MAX_INPUT)), direct));
            default -> roundTrip(decoder, data);
        }
    }

    private static void decodeAll(FrameDecoder decoder, ByteBuffer input) {
        while (true) {
            int before = input.position();
            Frame frame;
            try {
                frame = decoder.decode(input);
            } catch (FrameException e) {
                assertNotNull(e.code(), "a refusal names its error code");
                assertEquals(before, input.position(), "a refused frame consumes nothing");
                return;
            }
            if (frame == null) {
                assertEquals(before, input.position(), "an incomplete frame consumes nothing");
                return;
            }
            assertTrue(input.position() > before, "a decoded frame is consumed");
            assertEquals(input.position() - before, FrameEncoder.encodedSize(frame),
                    "the frame took exactly its encoded size");
            assertEquals(frame, new FrameDecoder(FrameDecoder.MAX_LENGTH).decode(FrameEncoder.encode(frame)),
                    "a decoded frame encodes to the same frame");
        }
    }

    private static void roundTrip(FrameDecoder decoder, FuzzedDataProvider data) {
        FrameType[] types = FrameType.values();
        FrameType type = types[data.consumeInt(0, types.length - 1)];
        long corrId = data.consumeLong();
        String name = data.consumeString(256);
        byte[] content = data.consumeRemainingAsBytes();
        Frame frame;
        try {
            frame = new Frame(type, corrId, name, content);
        } catch (IllegalArgumentException e) {
            return; // a frame the encoder may not be given (a name over 65535 bytes): refused at construction
        }
        ByteBuffer encoded = FrameEncoder.encode(frame);
        int size = encoded.remaining();
        Frame decoded;
        try {
            decoded = decoder.decode(encoded);
        } catch (FrameException e) {
            assertEquals(ErrorCode.FRAME_TOO_LARGE, e.code(), "a well-formed frame is refused only for its size");
            assertTrue(size - FrameDecoder.LENGTH_FIELD_BYTES > decoder.maxFrameBytes());
            return;
        }
        assertEquals(frame, decoded);
        assertEquals(0, encoded.remaining());
    }

    /** The bytes with their first four set to the length of the rest and their last four to its checksum. */
    static byte[] withConsistentLengthAndCrc(byte[] bytes) {
        if (bytes.length < FrameDecoder.LENGTH_FIELD_BYTES + FrameDecoder.MIN_LENGTH) {
            return bytes;
        }
        ByteBuffer frame = ByteBuffer.wrap(bytes).order(ByteOrder.BIG_ENDIAN);
        frame.putInt(0, bytes.length - FrameDecoder.LENGTH_FIELD_BYTES);
        CRC32C crc = new CRC32C();
        crc.update(bytes, FrameDecoder.LENGTH_FIELD_BYTES, bytes.length - FrameDecoder.LENGTH_FIELD_BYTES - 4);
        frame.putInt(bytes.length - 4, (int) crc.getValue());
        return bytes;
    }

    private static ByteBuffer wrap(byte[] bytes, boolean direct) {
        if (!direct) {
            return ByteBuffer.wrap(bytes);
        }
        ByteBuffer buffer = ByteBuffer.allocateDirect(bytes.length).put(bytes);
        return buffer.flip();
    }
}
