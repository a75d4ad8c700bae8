package io.troupe.cluster.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

/**
 * The engine's cluster name: the configured name, a dash and the first 32 hex digits of
 * HMAC-SHA256(secret, name).
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread.
 */
class DerivedClusterNameTest {

    @Test
    void isTheNameAndTheFirst32HexDigitsOfTheHmacOfTheNameUnderTheSecret() {
        // python3: hmac.new(b'0123456789abcdef-secret', b'troupe', hashlib.sha256).hexdigest()[:32]
        assertEquals("troupe-9ce5eb93fb56491f6aea1d7360e89c4d",
                DerivedClusterName.of("troupe", "0123456789abcdef-secret"));
    }

    @Test
    void differsWithTheSecretAndWithTheName() {
        String name = DerivedClusterName.of("troupe", "0123456789abcdef-secret");

        assertNotEquals(name, DerivedClusterName.of("troupe", "0123456789abcdef-secreT"));
        assertNotEquals(name.substring(name.indexOf('-')), DerivedClusterName.of("prod", "0123456789abcdef-secret")
                .substring("prod".length()));
    }
}
