package io.troupe.host.state;

import static io.troupe.host.state.StateAssertions.assertDecodedAs;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.troupe.api.Failure;
import io.troupe.api.Message;

/**
 * Version 1's bytes, frozen: a value using every tag encodes to exactly these bytes and these bytes decode
 * to it. A change to the format that would make snapshots already on disk unreadable, or read differently,
 * fails here; such a change needs a new version (docs/state-format.md, "Versions").
 */
class StateFormatFixtureTest {

    private static final String ACTOR = "handler:counter.add@acme";
    /** {@link #everyTag()} in version 1, checked by hand against docs/state-format.md. */
    private static final String VERSION_1 =
            "545301220b0a046e756c6c000a08626f6f6c65616e73200201020a076e756d62657273200903fe04d70405dfc50806ff"
            + "ffffffffffffffff01073fc0000008bfd000000000000009e9010b09bd12edc4f427dfc5ec0c0602cfcc0a0474657874"
            + "0a0861f09f9880eda080050e1809100201021101011201011301041401051501408000001601c0140000000000001701"
            + "7819106a6176612e6c616e672e537472696e67020a017300210205020504230a086f7074696f6e616c2406060a047469"
            + "6d6520023080c49fd50c05310380cab5ee010a026964320123456789abcdeffedcba98765432100a04756e6974331d6a"
            + "6176612e7574696c2e636f6e63757272656e742e54696d65556e6974075345434f4e44530a0361706920024008636861"
            + "742e736179026869410b6261642e72657175657374026e6f";

    static Object everyTag() {
        Map<Object, Object> map = new LinkedHashMap<>();
        map.put("null", null);
        map.put("booleans", List.of(false, true));
        map.put("numbers", new ArrayList<>(List.of((byte) -2, (short) -300, -70_000, Long.MIN_VALUE, 1.5f,
                -0.25, 'é', new BigInteger("-1234567890123456789012"), new BigDecimal("-12.340"))));
        map.put("text", "a😀\uD800");
        map.put(7, new Object[] {new byte[] {1, 2}, new boolean[] {true}, new short[] {-1}, new int[] {2},
                new long[] {-3}, new float[] {4f}, new double[] {-5d}, new char[] {'x'}, new String[] {"s", null}});
        map.put(new LinkedHashSet<>(List.of(1, 2)), Optional.empty());
        map.put("optional", Optional.of(3L));
        map.put("time", List.of(Instant.ofEpochSecond(1_700_000_000L, 5), Duration.ofMillis(-1500)));
        map.put("id", new UUID(0x0123456789abcdefL, 0xfedcba9876543210L));
        map.put("unit", TimeUnit.SECONDS);
        map.put("api", List.of(Message.of("chat.say", "hi"), new Failure("bad.request", "no")));
        return map;
    }

    @Test
    void version1BytesOfEveryTagAreFrozen() {
        String encoded = HexFormat.of().formatHex(new StateCodec().encode(everyTag(), ACTOR));
        assertEquals(VERSION_1, encoded);
        assertDecodedAs(everyTag(), new StateCodec().decode(HexFormat.of().parseHex(VERSION_1), ACTOR));
    }
}
