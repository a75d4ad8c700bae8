package io.troupe.server.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.net.InetAddress;
import java.time.Duration;

import org.junit.jupiter.api.Test;

/**
 * One summary line per interval: counts, addresses, the most active first, refusals while blocked.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread.
 */
class FailedHelloLogTest {

    @Test
    void anIntervalIsSummarisedInOneLineAndTheNextStartsFromZero() throws Exception {
        FailedHelloLog log = new FailedHelloLog();
        InetAddress a = InetAddress.getByName("127.0.0.2");
        InetAddress b = InetAddress.getByName("127.0.0.1");
        for (int i = 0; i < 20; i++) {
            log.failed(a);
        }
        for (int i = 0; i < 30; i++) {
            log.refusedWhileBlocked(a);
        }
        log.failed(b);
        assertEquals("Failed HELLOs in the last 60 s: 51 from 2 address(es) (most: 127.0.0.2 50, 127.0.0.1 1); "
                + "30 of them refused at once from blocked addresses; 1 address(es) blocked now",
                log.summary(Duration.ofSeconds(60), 1));
        assertNull(log.summary(Duration.ofSeconds(60), 1), "nothing failed since");
    }
}
