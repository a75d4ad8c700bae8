package io.troupe.host.reactor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link AcceptBackoff} with a manual clock; single-threaded. */
class AcceptBackoffTest {

    private final AcceptBackoff backoff = new AcceptBackoff();

    @Test
    void pausesDoubleUpToTheMaximumAndResetAfterASuccess() {
        assertEquals(50, backoff.onFailure(0));
        assertEquals(100, backoff.onFailure(0));
        assertEquals(200, backoff.onFailure(0));
        assertEquals(400, backoff.onFailure(0));
        assertEquals(800, backoff.onFailure(0));
        assertEquals(1000, backoff.onFailure(0));
        assertEquals(1000, backoff.onFailure(0));
        backoff.onSuccess(0);
        assertEquals(50, backoff.onFailure(0));
    }

    @Test
    void onlyTheFirstFailureOfAnEpisodeStartsItAndTheSuccessThatEndsItSaysWhatItCost() {
        long start = 123_456_789L;
        backoff.onFailure(start);
        assertTrue(backoff.started());
        for (int i = 1; i < 40; i++) {
            backoff.onFailure(start + i * 1_000_000L);
            assertFalse(backoff.started(), "failure " + i + " belongs to the episode going on");
        }

        AcceptBackoff.Episode ended = backoff.onSuccess(start + 5_000_000_000L);

        assertEquals(new AcceptBackoff.Episode(40, 5_000_000_000L), ended);
        assertNull(backoff.onSuccess(start + 5_000_000_001L), "an episode ends once");
    }

    @Test
    void aFailureAfterARecoveryStartsANewEpisode() {
        backoff.onFailure(10);
        backoff.onSuccess(20);
        backoff.onFailure(30);

        assertTrue(backoff.started());
        assertEquals(new AcceptBackoff.Episode(1, 70), backoff.onSuccess(100));
    }

    @Test
    void successesWithoutFailuresEndNothing() {
        assertNull(backoff.onSuccess(1));
        assertNull(backoff.onSuccess(2));
    }
}
