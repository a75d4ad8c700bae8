package io.troupe.config;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Which listening hosts are loopback ones, the rule behind refusing plaintext elsewhere.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread.
 */
class ListenAddressTest {

    @Test
    void loopbackNamesAndAddressesAreLoopback() {
        for (String host : new String[] {"127.0.0.1", "localhost", "::1", "127.0.0.2"}) {
            assertTrue(ListenAddress.isLoopback(host), host);
            assertTrue(ListenAddress.resolves(host), host);
        }
    }

    @Test
    void everyInterfaceAndNamesThatDoNotResolveAreNot() {
        assertFalse(ListenAddress.isLoopback("0.0.0.0"));
        assertFalse(ListenAddress.isLoopback("::"));
        assertFalse(ListenAddress.isLoopback("no-such-host.invalid"));
        assertFalse(ListenAddress.resolves("no-such-host.invalid"));
    }
}
