package io.troupe.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Fuzzes {@link FrameDecoder#next}, the server's decoder, which takes a frame over
 * {@value FrameDecoder#ASSEMBLE_ABOVE_BYTES} bytes in as it arrives, differentially against
 * {@link FrameDecoder#decode}, which waits for whole frames ({@link FrameDecoderFuzzTest} fuzzes that one
 * alone). A class of its own because Jazzer fuzzes one {@code @FuzzTest} per JVM.
 *
 * <p><b>Threading:</b> two decoders per execution, on the fuzzing thread.
 */
class FrameDecoderNextFuzzTest {

    /**
     * {@link FrameDecoder#next}, which takes a large frame in as it arrives, against {@link FrameDecoder#decode}
     * on the whole stream: the same bytes fed in fuzzed pieces, as a connection reads them, must give the same
     * frames and end the same way (the same error code, or a frame not complete yet).
     */
    @FuzzTest(maxDuration = "10s")
    void nextInPiecesGivesWhatDecodeGivesOnTheWhole(FuzzedDataProvider data) {
        int limit = data.consumeInt(FrameDecoder.MIN_LENGTH, FrameDecoder.DEFAULT_MAX_FRAME_BYTES);
        int mode = data.consumeInt(0, 2);
        int[] pieces = new int[data.consumeInt(1, 16)];
        for (int i = 0; i < pieces.length; i++) {
            pieces[i] = data.consumeInt(1, 1 << 14);
        }
        byte[] stream = switch (mode) {
            case 0 -> data.consumeRemainingAsBytes();
            case 1 -> FrameDecoderFuzzTest.withConsistentLengthAndCrc(data.consumeRemainingAsBytes());
            default -> framesWithOneByteChanged(data);
        };

        List<Frame> whole = new ArrayList<>();
        ErrorCode wholeEnd = null;
        FrameDecoder reference = new FrameDecoder(limit);
        ByteBuffer all = ByteBuffer.wrap(stream);
        try {
            for (Frame frame = reference.decode(all); frame != null; frame = reference.decode(all)) {
                whole.add(frame);
            }
        } catch (FrameException e) {
            wholeEnd = e.code();
        }

        List<Frame> pieced = new ArrayList<>();
        ErrorCode piecedEnd = null;
        FrameDecoder decoder = new FrameDecoder(limit);
        ByteBuffer input = ByteBuffer.allocate(stream.length);
        try {
            for (int at = 0, i = 0; at < stream.length; i++) {
                int piece = Math.min(stream.length - at, pieces[i % pieces.length]);
                input.put(stream, at, piece).flip();
                at += piece;
                for (Frame frame = decoder.next(input); frame != null; frame = decoder.next(input)) {
                    pieced.add(frame);
                }
                input.compact();
            }
        } catch (FrameException e) {
            piecedEnd = e.code();
        }
        assertEquals(whole, pieced, "the frames");
        assertEquals(wholeEnd, piecedEnd, "how the stream ends");
    }

    /**
     * A few valid frames, large ones among them (so that {@code next} takes them in as they arrive), with one
     * byte anywhere changed or none: a damaged header, content or checksum in the middle of a stream.
     */
    private static byte[] framesWithOneByteChanged(FuzzedDataProvider data) {
        FrameType[] types = FrameType.values();
        ByteBuffer out = ByteBuffer.allocate(1 << 20);
        for (int frames = data.consumeInt(1, 4); frames > 0; frames--) {
            FrameType type = types[data.consumeInt(0, types.length - 1)];
            String name = data.consumeString(16);
            byte[] content = new byte[data.consumeInt(0, 20_000)];
            new Random(data.consumeLong()).nextBytes(content);
            ByteBuffer frame = FrameEncoder.encode(new Frame(type, data.consumeLong(), name, content));
            if (frame.remaining() > out.remaining()) {
                break;
            }
            out.put(frame);
        }
        byte[] stream = Arrays.copyOf(out.array(), out.position());
        if (stream.length > 0 && data.consumeBoolean()) {
            stream[data.consumeInt(0, stream.length - 1)] ^= (byte) data.consumeInt(1, 255);
        }
        return stream;
    }
}
