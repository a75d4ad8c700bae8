package io.troupe.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.OptionalLong;

import org.junit.jupiter.api.Test;

/**
 * Integers as ConfigAdmin delivers them: typed numbers and text, and what is not one.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread.
 */
class ConfigIntegerTest {

    @Test
    void readsIntegralNumbersAndTextHoldingOne() {
        assertEquals(OptionalLong.of(7), ConfigInteger.parse(7));
        assertEquals(OptionalLong.of(7_000_000_000L), ConfigInteger.parse(7_000_000_000L));
        assertEquals(OptionalLong.of(3), ConfigInteger.parse((short) 3));
        assertEquals(OptionalLong.of(-2), ConfigInteger.parse((byte) -2));
        assertEquals(OptionalLong.of(8080), ConfigInteger.parse(" 8080 "));
    }

    @Test
    void anythingElseIsNoInteger() {
        assertEquals(OptionalLong.empty(), ConfigInteger.parse("12abc"));
        assertEquals(OptionalLong.empty(), ConfigInteger.parse(""));
        assertEquals(OptionalLong.empty(), ConfigInteger.parse(1.5));
        assertEquals(OptionalLong.empty(), ConfigInteger.parse(new String[] {"1"}));
        assertEquals(OptionalLong.empty(), ConfigInteger.parse(null));
    }
}
