package io.troupe.ops.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The token's rules, its comparison and the cookie value it derives.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread.
 */
class AdminTokenTest {

    @Test
    void generatedTokensAreLongUrlSafeAndDifferent() {
        String one = AdminToken.generate();
        String two = AdminToken.generate();
        assertEquals(43, one.length());
        assertTrue(one.matches("[A-Za-z0-9_-]+"), one);
        assertNotEquals(one, two);
        assertTrue(AdminToken.of(one).matches(one));
    }

    @Test
    void matchesOnlyTheSameText() {
        AdminToken token = AdminToken.of("operators-own-token-1");
        assertTrue(token.matches("operators-own-token-1"));
        assertFalse(token.matches("operators-own-token-2"));
        assertFalse(token.matches("operators-own-token-1 "));
        assertFalse(token.matches(""));
        assertFalse(token.matches(null));
    }

    @Test
    void refusesShortTokensAndTokensWithBlanks() {
        IllegalArgumentException shortOne = assertThrows(IllegalArgumentException.class,
                () -> AdminToken.of("fifteen-chars!!"));
        assertEquals("shorter than 16 characters", shortOne.getMessage());
        IllegalArgumentException blank = assertThrows(IllegalArgumentException.class,
                () -> AdminToken.of("with a blank inside it"));
        assertEquals("holds a blank", blank.getMessage());
        AdminToken.of("sixteen-chars!!!");
    }

    @Test
    void theCookieValueIsDerivedFromTheTokenWithoutRevealingIt() {
        AdminToken token = AdminToken.of("operators-own-token-1");
        String cookie = token.cookieValue();
        assertFalse(cookie.contains("operators"), cookie);
        assertEquals(cookie, AdminToken.of("operators-own-token-1").cookieValue());
        assertNotEquals(cookie, AdminToken.of("operators-own-token-2").cookieValue());
        assertTrue(token.matchesCookie(cookie));
        assertFalse(token.matchesCookie("operators-own-token-1"));
        assertFalse(token.matchesCookie(null));
    }

    @Test
    void neverShowsTheTokenInText() {
        assertEquals("AdminToken[***]", AdminToken.of("operators-own-token-1").toString());
    }
}
