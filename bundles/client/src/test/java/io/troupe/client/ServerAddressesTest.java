package io.troupe.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** {@link ServerAddress} parsing, {@link ServerAddresses} order and {@link RedirectTrail}'s bound. */
class ServerAddressesTest {

    private static final ServerAddress A = new ServerAddress("a", 1);
    private static final ServerAddress B = new ServerAddress("b", 2);
    private static final ServerAddress C = new ServerAddress("c", 3);
    private static final ServerAddress X = new ServerAddress("x", 9);

    @Test
    void anAddressIsAHostWithAnOptionalPortAndAnIpv6LiteralMayHaveBrackets() {
        assertEquals(new ServerAddress("node1", 7879), ServerAddress.parse(" node1:7879 ", 7878));
        assertEquals(new ServerAddress("node1", 7878), ServerAddress.parse("node1", 7878));
        assertEquals(new ServerAddress("::1", 7879), ServerAddress.parse("[::1]:7879", 7878));
        assertEquals(new ServerAddress("::1", 7878), ServerAddress.parse("[::1]", 7878));
        assertEquals(new ServerAddress("fe80::1", 7878), ServerAddress.parse("fe80::1", 7878));
        assertEquals("[::1]:7879", new ServerAddress("::1", 7879).toString());
        assertEquals("node1:7879", new ServerAddress("node1", 7879).toString());
    }

    @Test
    void aBadAddressIsRefusedWithItsReason() {
        List<String> problems = new ArrayList<>();
        for (String bad : List.of("node1:0", "node1:x", ":7878", "[::1", "[::1]7878", "  ")) {
            problems.add(assertThrows(IllegalArgumentException.class, () -> ServerAddress.parse(bad, 7878))
                    .getMessage());
        }
        assertTrue(problems.get(0).contains("'node1:0' is not HOST[:PORT]: the port must be a whole number from 1"),
                problems.get(0));
        assertTrue(problems.get(2).endsWith("no host"), problems.get(2));
        assertTrue(problems.get(3).endsWith("a '[' without its ']'"), problems.get(3));
        assertTrue(problems.get(4).contains("'7878' after the ']'"), problems.get(4));
    }

    @Test
    void seedsAreTriedInTurnAndARedirectComesFirstUntilItIsLeft() {
        ServerAddresses addresses = new ServerAddresses(List.of(A, B, C));
        assertEquals(A, addresses.current());
        assertEquals(3, addresses.roundSize());

        addresses.advance();
        assertEquals(B, addresses.current());
        addresses.redirectTo(X);
        assertEquals(X, addresses.current());
        assertEquals(4, addresses.roundSize(), "the owner, then every seed");

        addresses.advance();
        assertEquals(C, addresses.current(), "the seed after the last one used");
        addresses.advance();
        assertEquals(A, addresses.current());
    }

    @Test
    void aRedirectToASeedGoesOnFromThatSeed() {
        ServerAddresses addresses = new ServerAddresses(List.of(A, B, C));

        addresses.redirectTo(B);

        assertEquals(B, addresses.current());
        assertEquals(3, addresses.roundSize());
        addresses.advance();
        assertEquals(C, addresses.current());
    }

    @Test
    void theTrailFollowsUpToItsLimitThenNamesEveryAddressOnTheWay() {
        RedirectTrail trail = new RedirectTrail("acme", 2);

        assertNull(trail.follow("a:1", "b:2"));
        assertNull(trail.follow("b:2", ""));
        TroupeClientException tooMany = trail.follow("c:3", "a:1");

        assertEquals("tenant.moved", tooMany.code());
        assertTrue(tooMany.detail().startsWith("tenant 'acme' was redirected 3 times in a row without a WELCOME, more"
                + " than the 2 allowed (maxRedirects): a:1 -> b:2 -> c:3 -> a:1;"), tooMany.detail());
        trail.reset();
        assertEquals(0, trail.count());
        assertNull(trail.follow("a:1", "b:2"));
    }

    @Test
    void withNoRedirectAllowedTheFirstEndsTheAttemptAndSaysTheOwnerWasNotKnown() {
        TroupeClientException refused = new RedirectTrail("acme", 0).follow("a:1", "");

        assertTrue(refused.detail().contains("a:1 -> (owner not known yet)"), refused.detail());
    }
}
