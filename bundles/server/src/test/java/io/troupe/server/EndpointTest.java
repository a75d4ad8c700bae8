package io.troupe.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

import io.troupe.config.ListenAddress;

/**
 * When the endpoint refuses to listen: plaintext on a non-loopback address without
 * {@code allowPlaintext}, and TLS configured without a usable context.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread.
 */
class EndpointTest {

    @Test
    void plaintextIsAllowedOnLoopbackAddresses() {
        for (String host : new String[] {"127.0.0.1", "localhost", "::1", "127.0.0.2"}) {
            assertTrue(ListenAddress.isLoopback(host), host);
            assertNull(Endpoint.refusal(settings(Map.of("host", host)), null), host);
        }
    }

    @Test
    void plaintextOnEveryInterfaceIsRefusedUnlessAllowed() {
        assertFalse(ListenAddress.isLoopback("0.0.0.0"));
        assertEquals("the protocol would be plaintext on a non-loopback address: configure TLS (tls.keystore; "
                + "bin/troupe tls-init makes a keystore to try it) or set allowPlaintext = true in "
                + "etc/io.troupe.server.cfg", Endpoint.refusal(settings(Map.of("host", "0.0.0.0")), null));
        assertNull(Endpoint.refusal(settings(Map.of("host", "0.0.0.0", "allowPlaintext", "true")), null));
    }

    @Test
    void tlsWithoutAContextIsRefusedEvenOnLoopback() {
        String refusal = Endpoint.refusal(settings(Map.of("tls.keystore", "etc/tls/server.p12")), null);
        assertTrue(refusal.startsWith("TLS is configured (tls.keystore) but its context could not be built"), refusal);
    }

    private static ServerSettings settings(Map<String, Object> properties) {
        return ServerSettings.parse(properties, ServerSettings.defaults(), problem -> {
            throw new AssertionError(problem.toString());
        });
    }
}
