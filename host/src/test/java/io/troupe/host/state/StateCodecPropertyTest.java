package io.troupe.host.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.Arrays;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Property tests over random nested values ({@link RandomStates}, seeded: a failure names its seed, and
 * {@code new RandomStates(seed).value(depth)} rebuilds the value): decoding what was encoded gives the
 * value back by the documented mapping, encoding that again gives the same bytes, and every truncation
 * or corruption of the bytes fails with an {@link UnreadableStateException} and nothing else.
 */
class StateCodecPropertyTest {

    private static final String ACTOR = "handler:counter.add@acme";
    private final StateCodec codec = new StateCodec();

    @Test
    void everyRandomNestedValueComesBackEqualAndEncodesToTheSameBytesAgain() {
        int deep = 0;
        long totalBytes = 0;
        for (long seed = 0; seed < 5_000; seed++) {
            Object state = new RandomStates(seed).state((int) (seed % 7));
            byte[] bytes = codec.encode(state, ACTOR);
            totalBytes += bytes.length;
            deep += nesting(state) >= 3 ? 1 : 0;
            Object decoded;
            try {
                decoded = codec.decode(bytes, ACTOR);
            } catch (RuntimeException e) {
                throw new AssertionError("seed " + seed + ": " + e.getMessage(), e);
            }
            try {
                StateAssertions.assertDecodedAs(state, decoded);
            } catch (AssertionError e) {
                throw new AssertionError("seed " + seed + ": " + e.getMessage(), e);
            }
            assertArrayEquals(bytes, codec.encode(decoded, ACTOR), "seed " + seed + ": re-encoding differs");
        }
        // the generator must really nest, or this test proves little (seeded: 1270 values, 1,128,479 bytes)
        assertTrue(deep >= 1_000, deep + " of 5000 values nested 3 levels or more");
        assertTrue(totalBytes >= 1_000_000, totalBytes + " bytes encoded in all");
    }

    /** How many containers deep {@code value} goes. */
    private static int nesting(Object value) {
        Stream<?> inside;
        if (value instanceof Collection<?> collection) {
            inside = collection.stream();
        } else if (value instanceof Map<?, ?> map) {
            inside = Stream.concat(map.keySet().stream(), map.values().stream());
        } else if (value instanceof Object[] array) {
            inside = Arrays.stream(array);
        } else if (value instanceof Optional<?> optional) {
            inside = optional.stream();
        } else {
            return 0;
        }
        return 1 + inside.mapToInt(StateCodecPropertyTest::nesting).max().orElse(0);
    }

    @Test
    void everyTruncationOfAnEncodedStateIsReportedAsUnreadable() {
        for (long seed = 0; seed < 300; seed++) {
            byte[] bytes = codec.encode(new RandomStates(seed).value(4), ACTOR);
            for (int length = 0; length < bytes.length; length++) {
                byte[] prefix = Arrays.copyOf(bytes, length);
                assertThrows(UnreadableStateException.class, () -> codec.decode(prefix, ACTOR),
                        "seed " + seed + ", first " + length + " of " + bytes.length + " bytes");
            }
        }
    }

    @Test
    void corruptedBytesDecodeToSomeValueOrFailAsUnreadableButNeverOtherwise() {
        Random random = new Random(42);
        for (long seed = 0; seed < 20_000; seed++) {
            byte[] bytes = codec.encode(new RandomStates(seed).value(3), ACTOR);
            int flips = 1 + random.nextInt(3);
            for (int i = 0; i < flips; i++) {
                int body = Math.max(1, bytes.length - StateFormat.HEADER_LENGTH);
                int at = StateFormat.HEADER_LENGTH + random.nextInt(body);
                if (at < bytes.length) {
                    bytes[at] = (byte) (random.nextInt(4) == 0 ? 0xFF : bytes[at] ^ 1 << random.nextInt(8));
                }
            }
            try {
                Object decoded = codec.decode(bytes, ACTOR);
                codec.encode(decoded, ACTOR);
            } catch (UnreadableStateException expected) {
                // the precise error a corrupt snapshot must give
            } catch (RuntimeException | Error e) {
                fail("seed " + seed + ": corrupt bytes " + Arrays.toString(bytes) + " gave " + e, e);
            }
        }
    }
}
