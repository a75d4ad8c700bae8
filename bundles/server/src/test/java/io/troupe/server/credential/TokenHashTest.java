package io.troupe.server.credential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.SecureRandom;
import java.util.Base64;

import org.junit.jupiter.api.Test;

/**
 * The stored token hash: its format read back, right and wrong tokens, and precise errors for each way a
 * stored hash can be malformed.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread.
 */
class TokenHashTest {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String TOKEN = "0123456789abcdef0123456789abcdef-x";

    @Test
    void aHashReadBackFromItsStoredFormVerifiesTheSameToken() {
        TokenHash hash = TokenHash.of(TOKEN, TokenHash.MIN_ITERATIONS, RANDOM);
        String stored = hash.format();
        assertTrue(stored.matches("pbkdf2-sha256\\$1000\\$[A-Za-z0-9+/]{22}==\\$[A-Za-z0-9+/]{43}="), stored);
        TokenHash read = TokenHash.parse(stored);
        assertEquals(hash, read);
        assertTrue(read.verify(TOKEN));
        assertTrue(read.verify(TOKEN.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    @Test
    void aWrongTokenOrBytesThatAreNotUtf8DoNotVerify() {
        TokenHash hash = TokenHash.of(TOKEN, TokenHash.MIN_ITERATIONS, RANDOM);
        assertFalse(hash.verify(TOKEN + "y"));
        assertFalse(hash.verify(""));
        assertFalse(hash.verify(new byte[] {(byte) 0xC3, (byte) 0x28}));
    }

    @Test
    void twoHashesOfOneTokenDifferByTheirSalt() {
        assertFalse(TokenHash.of(TOKEN, TokenHash.MIN_ITERATIONS, RANDOM).format()
                .equals(TokenHash.of(TOKEN, TokenHash.MIN_ITERATIONS, RANDOM).format()));
    }

    @Test
    void theDefaultHashUsesTheDefaultIterations() {
        assertEquals(TokenHash.DEFAULT_ITERATIONS, TokenHash.of(TOKEN, RANDOM).iterations());
    }

    @Test
    void malformedStoredHashesAreRefusedWithWhatIsWrong() {
        String salt = Base64.getEncoder().encodeToString(new byte[16]);
        String hash = Base64.getEncoder().encodeToString(new byte[32]);
        assertProblem("expected pbkdf2-sha256$<iterations>$<salt base64>$<hash base64> (4 fields separated by '$'), "
                + "found 1 field(s)", "s3cret");
        assertProblem("unknown scheme 'bcrypt' (only pbkdf2-sha256 is supported)", "bcrypt$1000$" + salt + "$" + hash);
        assertProblem("iterations 'many' is not an integer", "pbkdf2-sha256$many$" + salt + "$" + hash);
        assertProblem("iterations 10 is out of range (1000 to 10000000)", "pbkdf2-sha256$10$" + salt + "$" + hash);
        assertProblem("iterations 2000000000 is out of range (1000 to 10000000)",
                "pbkdf2-sha256$2000000000$" + salt + "$" + hash);
        assertProblem("the salt is not valid base64 (Illegal base64 character 21)",
                "pbkdf2-sha256$1000$!!$" + hash);
        assertProblem("the salt has 3 bytes, not 16", "pbkdf2-sha256$1000$AAAA$" + hash);
        assertProblem("the hash has 16 bytes, not 32", "pbkdf2-sha256$1000$" + salt + "$" + salt);
    }

    @Test
    void toStringNeverShowsTheHash() {
        TokenHash hash = TokenHash.of(TOKEN, TokenHash.MIN_ITERATIONS, RANDOM);
        assertEquals("TokenHash[pbkdf2-sha256, 1000 iterations]", hash.toString());
    }

    private static void assertProblem(String expected, String stored) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TokenHash.parse(stored));
        assertEquals(expected, e.getMessage());
    }
}
