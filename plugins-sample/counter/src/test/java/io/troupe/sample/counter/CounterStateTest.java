package io.troupe.sample.counter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** Deterministic tests of the two {@link CounterState} formats. Threading: JUnit's thread only. */
class CounterStateTest {

    @Test
    void majorVersionOneWritesALongAndLaterMajorVersionsWriteAMap() {
        assertEquals(CounterState.LONG_FORMAT, CounterState.formatWrittenBy(0));
        assertEquals(CounterState.LONG_FORMAT, CounterState.formatWrittenBy(1));
        assertEquals(CounterState.MAP_FORMAT, CounterState.formatWrittenBy(2));
        assertEquals(CounterState.MAP_FORMAT, CounterState.formatWrittenBy(3));
    }

    @Test
    void formatOneIsTheTotalAsALong() {
        assertEquals(Long.valueOf(42), CounterState.write(42, CounterState.LONG_FORMAT));
    }

    @Test
    void formatTwoIsAMapOfTheTotalAsALongAndTheFormatNumber() {
        assertEquals(Map.of("total", 42L, "format", 2), CounterState.write(42, CounterState.MAP_FORMAT));
    }

    @Test
    void bothFormatsAreMadeOfJdkTypesOnlySoThatTheyCrossBundleRevisions() {
        for (int format : new int[] {CounterState.LONG_FORMAT, CounterState.MAP_FORMAT}) {
            Object state = CounterState.write(7, format);
            assertNull(state.getClass().getClassLoader(), state.getClass() + " is not loaded by the JDK");
        }
    }

    @Test
    void everyTotalRoundTripsThroughBothFormats() {
        for (long total : new long[] {0, 1, -1, 42, Long.MAX_VALUE, Long.MIN_VALUE}) {
            assertEquals(total, CounterState.read(CounterState.write(total, CounterState.LONG_FORMAT)));
            assertEquals(total, CounterState.read(CounterState.write(total, CounterState.MAP_FORMAT)));
        }
    }

    @Test
    void theFormatNumberMayBeALongAndOtherMapEntriesAreIgnored() {
        Map<String, Object> state = new HashMap<>();
        state.put("total", 5L);
        state.put("format", 2L);
        state.put("comment", "written by a future 2.x");

        assertEquals(5, CounterState.read(state));
    }

    @Test
    void noStateIsATotalOfZero() {
        assertEquals(0, CounterState.read(null));
    }

    @Test
    void anythingButALongOrAFormatTwoMapIsRefusedWithTheReason() {
        assertRefused("42", "neither a Long (format 1) nor a Map (format 2)");
        assertRefused(42, "neither a Long (format 1) nor a Map (format 2)");
        assertRefused(List.of(42L), "neither a Long (format 1) nor a Map (format 2)");
        assertRefused(Map.of("total", 42L), "no \"format\" entry");
        assertRefused(Map.of("total", 42L, "format", 3), "its format 3 is not 2");
        assertRefused(Map.of("total", 42L, "format", "2"), "its \"format\" is a java.lang.String, not an Integer");
        assertRefused(Map.of("total", 42L, "format", 1), "its format 1 is not 2");
        assertRefused(Map.of("format", 2), "no \"total\" entry");
        assertRefused(Map.of("total", "42", "format", 2), "its \"total\" is a java.lang.String, not a java.lang.Long");
        assertRefused(Map.of("total", 42, "format", 2), "its \"total\" is a java.lang.Integer, not a java.lang.Long");
    }

    @Test
    void aRefusalQuotesALongStateOnlyInPart() {
        String detail = assertRefused("x".repeat(10_000), "neither");
        assertTrue(detail.length() < 400, detail);
    }

    @Test
    void thereIsNoThirdFormatToWrite() {
        assertThrows(IllegalArgumentException.class, () -> CounterState.write(1, 3));
    }

    private static String assertRefused(Object state, String why) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CounterState.read(state));
        assertTrue(e.getMessage().startsWith("cannot import the counter state "), e.getMessage());
        assertTrue(e.getMessage().contains(why), e.getMessage());
        assertTrue(e.getMessage().contains("imports a java.lang.Long total (format 1) or a map"), e.getMessage());
        return e.getMessage();
    }
}
