package io.troupe.host.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The encoded sizes the codec's javadoc states for a typical counter, byte for byte. */
class StateCodecSizeTest {

    private static final String ACTOR = "handler:counter.add@acme";
    private final StateCodec codec = new StateCodec();

    @Test
    void aCounterOfOneLongTakesSixBytes() {
        // 'T' 'S' version 1, tag LONG, zigzag(1234) = 2468 = 0x9a4 as the varint a4 13
        assertArrayEquals(new byte[] {'T', 'S', 1, 0x06, (byte) 0xa4, 0x13}, codec.encode(1234L, ACTOR));
    }

    @Test
    void aCounterMapOfTotalAndUpdatesTakesTwentySixBytes() {
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("total", 1234L);
        state.put("updates", 17);
        // header 3, MAP + count 2, "total" 7, LONG 1234 3, "updates" 9, INT 17 2
        assertEquals(26, codec.encode(state, ACTOR).length);
    }

    @Test
    void aNullStateTakesFourBytes() {
        assertArrayEquals(new byte[] {'T', 'S', 1, 0x00}, codec.encode(null, ACTOR));
    }
}
