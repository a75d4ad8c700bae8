package io.troupe.host.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Fuzzes {@link StateCodec#decode}, which reads durable actor state back from the store (a file that may be
 * damaged): the only acceptable outcomes are a value or an {@link UnreadableStateException}. A value decoded
 * from any bytes must encode again, and that encoding must be stable: decoding and re-encoding it gives the
 * same bytes (what is read back is exactly what is kept the next time).
 *
 * <p><b>Threading:</b> the codec is stateless; the fuzzing thread only.
 */
class StateCodecFuzzTest {

    private static final String ACTOR = "handler:fuzz@tenant";
    private static final StateCodec CODEC = new StateCodec();

    @FuzzTest(maxDuration = "10s")
    void decodesAStateOrRefusesItAsUnreadable(byte[] bytes) {
        Object state;
        try {
            state = CODEC.decode(bytes, ACTOR);
        } catch (UnreadableStateException e) {
            assertNotNull(e.getMessage());
            return;
        }
        byte[] encoded = CODEC.encode(state, ACTOR);
        byte[] again = CODEC.encode(CODEC.decode(encoded, ACTOR), ACTOR);
        assertArrayEquals(encoded, again, "a decoded state re-encodes to stable bytes");
    }
}
