package io.troupe.server.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

/**
 * The failed-HELLO throttle on a manual clock: free failures, the growing delay, the block and its end,
 * forgetting, and the bound on tracked addresses.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread.
 */
class LoginGuardTest {

    private final AtomicLong now = new AtomicLong(5_000_000_000L);
    private final LoginGuard guard = new LoginGuard(now::get);

    @Test
    void theFirstFailuresAreFreeThenEachIsDelayedLongerUpToTheMaximum() throws Exception {
        InetAddress attacker = InetAddress.getByName("127.0.0.2");
        List<Long> delays = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            delays.add(guard.failed(attacker).delay().toMillis());
        }
        assertEquals(List.of(0L, 0L, 0L, 0L, 0L, 250L, 500L, 1000L, 2000L, 4000L, 4000L, 4000L), delays);
    }

    @Test
    void theTwentiethFailureBlocksTheAddressForFiveMinutesAndOthersAreNotAffected() throws Exception {
        InetAddress attacker = InetAddress.getByName("127.0.0.2");
        InetAddress other = InetAddress.getByName("127.0.0.1");
        for (int i = 1; i < LoginGuard.BLOCK_AFTER; i++) {
            assertFalse(guard.failed(attacker).blocks(), "failure " + i);
        }
        assertEquals(Duration.ZERO, guard.blockedFor(attacker));
        assertTrue(guard.failed(attacker).blocks());
        assertEquals(LoginGuard.BLOCK_FOR, guard.blockedFor(attacker));
        assertEquals(Duration.ZERO, guard.blockedFor(other));
        assertEquals(1, guard.blockedAddresses());
        now.addAndGet(LoginGuard.BLOCK_FOR.toNanos() - 1);
        assertEquals(Duration.ofNanos(1), guard.blockedFor(attacker));
        now.addAndGet(1);
        assertEquals(Duration.ZERO, guard.blockedFor(attacker));
        assertEquals(Duration.ZERO, guard.failed(attacker).delay(), "the count starts again after a block");
    }

    @Test
    void failuresAreForgottenAfterTenQuietMinutes() throws Exception {
        InetAddress address = InetAddress.getByName("10.0.0.1");
        for (int i = 0; i < 8; i++) {
            guard.failed(address);
        }
        now.addAndGet(LoginGuard.FORGET_AFTER.toNanos() + 1);
        assertEquals(Duration.ZERO, guard.failed(address).delay());
        now.addAndGet(LoginGuard.FORGET_AFTER.toNanos() + 1);
        assertEquals(0, guard.sweep());
    }

    @Test
    void anAddressIsSweptOnlyWhenItsBlockHasEndedAndItsFailuresAreForgotten() throws Exception {
        InetAddress address = InetAddress.getByName("10.0.0.2");
        for (int i = 0; i < LoginGuard.BLOCK_AFTER; i++) {
            guard.failed(address);
        }
        now.addAndGet(LoginGuard.BLOCK_FOR.toNanos() - 1);
        assertEquals(1, guard.sweep());
        now.addAndGet(LoginGuard.FORGET_AFTER.toNanos());
        assertEquals(0, guard.sweep());
    }

    @Test
    void atMostTheCapOfAddressesIsTrackedAndTheRestGoesUnthrottled() throws Exception {
        LoginGuard small = new LoginGuard(now::get, 2);
        for (int i = 1; i <= 3; i++) {
            InetAddress address = InetAddress.getByName("10.0.0." + i);
            for (int failure = 0; failure < LoginGuard.BLOCK_AFTER; failure++) {
                small.failed(address);
            }
        }
        assertEquals(2, small.size());
        assertEquals(Duration.ZERO, small.blockedFor(InetAddress.getByName("10.0.0.3")));
        assertEquals(2, small.blockedAddresses());
    }
}
