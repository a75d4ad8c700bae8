package io.troupe.sample.counter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.troupe.api.ErrorCode;
import io.troupe.api.TroupeException;

/** Deterministic tests of {@link Counter}. Threading: JUnit's thread only. */
class CounterTest {

    private final Counter counter = new Counter();

    @Test
    void aNewCounterStartsAtZero() {
        assertEquals(0, counter.total());
    }

    @Test
    void addingReturnsAndKeepsTheNewTotal() {
        assertEquals(5, counter.add("5"));
        assertEquals(2, counter.add("-3"));
        assertEquals(12, counter.add("+10"));
        assertEquals(12, counter.total());
    }

    @Test
    void surroundingWhitespaceIsIgnored() {
        assertEquals(-7, counter.add(" \t-7\r\n"));
        assertEquals(-6, counter.add("\u20031\u2003"));
    }

    @Test
    void leadingZerosAndMinusZeroAreOrdinaryIntegers() {
        assertEquals(7, counter.add("007"));
        assertEquals(7, counter.add("-0"));
    }

    @Test
    void theWholeRangeOfALongIsAccepted() {
        assertEquals(Long.MAX_VALUE, Counter.parse("9223372036854775807"));
        assertEquals(Long.MIN_VALUE, Counter.parse("-9223372036854775808"));
    }

    @Test
    void emptyOrBlankInputIsRejected() {
        assertRejected("", "got nothing");
        assertRejected(" \n\t", "got nothing");
    }

    @Test
    void anythingButOptionalSignAndDigitsIsRejected() {
        for (String input : new String[] {"abc", "1.5", "1e3", "0x10", "1 2", "--1", "+-1", "+", "-", "1_000",
                "12a", "\u0661\u0662" /* Arabic-Indic digits, which Long.parseLong would take */}) {
            String detail = assertRejected(input, "decimal integer");
            assertTrue(detail.contains(input.strip()), detail);
        }
    }

    @Test
    void aLongRejectedInputIsQuotedOnlyInPart() {
        String detail = assertRejected("x".repeat(10_000), "10000 characters");
        assertTrue(detail.length() < 200, detail);
    }

    @Test
    void anAmountBeyondTheRangeOfALongIsRejected() {
        assertRejected("9223372036854775808", "outside the range of a long");
        assertRejected("-9223372036854775809", "outside the range of a long");
        assertRejected("99999999999999999999999999", "outside the range of a long");
    }

    @Test
    void aSumBeyondTheRangeOfALongIsRejectedAndTheTotalStays() {
        counter.add(Long.toString(Long.MAX_VALUE - 1));
        assertEquals(Long.MAX_VALUE, counter.add("1"));

        String detail = assertRejected("1", "would leave the range of a long");
        assertTrue(detail.contains("the total is unchanged"), detail);
        assertEquals(Long.MAX_VALUE, counter.total());

        assertEquals(0, counter.add(Long.toString(-Long.MAX_VALUE)));
        counter.add(Long.toString(Long.MIN_VALUE));
        assertRejected("-1", "would leave the range of a long");
        assertEquals(Long.MIN_VALUE, counter.total());
    }

    @Test
    void rejectedInputLeavesTheTotalAsItWas() {
        counter.add("41");
        assertRejected("lots", "decimal integer");
        assertRejected("", "got nothing");
        assertRejected("1".repeat(30), "outside the range");
        assertEquals(41, counter.total());
        assertEquals(42, counter.add("1"));
    }

    /** Adds {@code input}, expects a bad.request whose detail mentions {@code expected}, returns the detail. */
    private String assertRejected(String input, String expected) {
        long before = counter.total();
        TroupeException e = assertThrows(TroupeException.class, () -> counter.add(input));
        assertEquals(ErrorCode.BAD_REQUEST, e.code());
        assertTrue(e.detail().contains(expected), e.detail());
        assertEquals(before, counter.total());
        return e.detail();
    }
}
