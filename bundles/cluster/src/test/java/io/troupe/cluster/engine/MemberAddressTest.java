package io.troupe.cluster.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * Member addresses as written in the configuration.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread.
 */
class MemberAddressTest {

    @Test
    void aMissingPortIsTheDefault() {
        assertEquals(new MemberAddress("node-1", 5801), MemberAddress.parse(" node-1 ", 5801));
        assertEquals(new MemberAddress("10.0.0.1", 6000), MemberAddress.parse("10.0.0.1:6000", 5801));
    }

    @Test
    void ipv6LiteralsAreWrittenInBracketsWithAPort() {
        assertEquals(new MemberAddress("::1", 5701), MemberAddress.parse("::1", 5701));
        assertEquals(new MemberAddress("fd00::1", 5702), MemberAddress.parse("[fd00::1]:5702", 5701));
        assertEquals("[fd00::1]:5702", MemberAddress.parse("[fd00::1]:5702", 5701).toString());
    }

    @Test
    void badAddressesSayWhy() {
        assertEquals("an empty address", assertThrows(IllegalArgumentException.class,
                () -> MemberAddress.parse(" ", 5701)).getMessage());
        assertEquals("port 0 is outside 1..65535", assertThrows(IllegalArgumentException.class,
                () -> MemberAddress.parse("host:0", 5701)).getMessage());
        assertEquals("'[fd00::1' has no closing ']'", assertThrows(IllegalArgumentException.class,
                () -> MemberAddress.parse("[fd00::1", 5701)).getMessage());
        assertEquals("not a host name or IP address: 'a/b'", assertThrows(IllegalArgumentException.class,
                () -> MemberAddress.parse("a/b:1", 5701)).getMessage());
    }
}
