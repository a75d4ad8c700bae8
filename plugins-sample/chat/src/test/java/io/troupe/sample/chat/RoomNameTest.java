package io.troupe.sample.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.troupe.api.ErrorCode;
import io.troupe.api.TroupeException;

/** Deterministic tests of {@link RoomName}. Threading: JUnit's thread only. */
class RoomNameTest {

    @Test
    void surroundingWhitespaceIsTrimmed() {
        assertEquals(new RoomName("lobby"), RoomName.parse("  lobby\t\r\n"));
        assertEquals("the lobby", RoomName.parse("\u2003the lobby ").value());
    }

    @Test
    void namesAreCaseSensitive() {
        assertNotEquals(RoomName.parse("Lobby"), RoomName.parse("lobby"));
    }

    @Test
    void anEmptyOrBlankNameIsRejected() {
        assertRejected("", "empty");
        assertRejected(" \t ", "empty");
    }

    @Test
    void twoHundredCharactersAreAllowedAndOneMoreIsNot() {
        assertEquals(200, RoomName.parse("r".repeat(200)).value().length());
        assertRejected("r".repeat(201), "201 characters");
    }

    @Test
    void theLengthLimitCountsCodePointsNotUtf16Units() {
        String grin = "\uD83D\uDE00";
        assertEquals(400, RoomName.parse(grin.repeat(200)).value().length());
        assertRejected(grin.repeat(201), "201 characters");
    }

    @Test
    void aLineBreakInsideTheNameIsRejected() {
        assertRejected("two\nlines", "line break");
        assertRejected("carriage\rreturn", "line break");
    }

    @Test
    void theConstructorRejectsWhatParseWouldHaveTrimmed() {
        assertRejected(() -> new RoomName(" lobby"), "whitespace");
    }

    private static void assertRejected(String text, String expected) {
        assertRejected(() -> RoomName.parse(text), expected);
    }

    private static void assertRejected(Runnable construction, String expected) {
        TroupeException e = assertThrows(TroupeException.class, construction::run);
        assertEquals(ErrorCode.BAD_REQUEST, e.code());
        assertTrue(e.detail().contains(expected), e.detail());
    }
}
