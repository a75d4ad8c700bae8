package io.troupe.host.reactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class AcceptBackoffTest {

    private final AcceptBackoff backoff = new AcceptBackoff();

    @Test
    void pausesDoubleUpToTheMaximumAndResetAfterASuccess() {
        assertEquals(50, backoff.onFailure());
        assertEquals(100, backoff.onFailure());
        assertEquals(200, backoff.onFailure());
        assertEquals(400, backoff.onFailure());
        assertEquals(800, backoff.onFailure());
        assertEquals(1000, backoff.onFailure());
        assertEquals(1000, backoff.onFailure());
        backoff.onSuccess();
        assertEquals(50, backoff.onFailure());
    }

    @Test
    void logsAtMostOncePerIntervalAndCountsTheRest() {
        long start = 123_456_789L;
        long interval = TimeUnit.SECONDS.toNanos(AcceptBackoff.LOG_INTERVAL_SECONDS);
        assertTrue(backoff.shouldLog(start));
        assertEquals(0, backoff.takeSuppressed());
        assertFalse(backoff.shouldLog(start + 1));
        assertFalse(backoff.shouldLog(start + interval - 1));
        assertTrue(backoff.shouldLog(start + interval));
        assertEquals(2, backoff.takeSuppressed());
        assertEquals(0, backoff.takeSuppressed());
    }
}
