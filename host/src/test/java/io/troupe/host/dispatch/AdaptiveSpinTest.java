package io.troupe.host.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class AdaptiveSpinTest {

    private final AdaptiveSpin spin = new AdaptiveSpin();

    /** Spins, each finding nothing, until the score runs out; returns how many spins that took. */
    private int missUntilParkingAtOnce() {
        int spins = 0;
        while (spin.score() > 0) {
            assertTrue(spin.shouldSpin());
            spin.spun(false);
            spins++;
        }
        return spins;
    }

    @Test
    void aFreshWorkerSpinsAndKeepsSpinningWhileSpinsFindWork() {
        for (int i = 0; i < 1_000; i++) {
            assertTrue(spin.shouldSpin());
            spin.spun(true);
        }
        assertEquals(AdaptiveSpin.MAX_SCORE, spin.score());
    }

    @Test
    void spinsThatFindNothingStopTheSpinningAfterTheScoreRunsOut() {
        assertEquals(AdaptiveSpin.MAX_SCORE, missUntilParkingAtOnce());
        assertFalse(spin.shouldSpin());
    }

    @Test
    void whileParkingAtOnceEverySixteenthWaitProbesWithASpin() {
        missUntilParkingAtOnce();
        int spins = 0;
        for (int wait = 1; wait <= 10 * AdaptiveSpin.PROBE_EVERY; wait++) {
            if (spin.shouldSpin()) {
                spins++;
                assertEquals(0, wait % AdaptiveSpin.PROBE_EVERY, "a probe on wait " + wait);
                spin.spun(false);
            }
        }
        assertEquals(10, spins);
    }

    @Test
    void aProbeThatFindsWorkTurnsSpinningBackOn() {
        missUntilParkingAtOnce();
        for (int wait = 1; wait < AdaptiveSpin.PROBE_EVERY; wait++) {
            assertFalse(spin.shouldSpin());
        }
        assertTrue(spin.shouldSpin());
        spin.spun(true);

        assertTrue(spin.shouldSpin(), "spinning again after a probe found work");
        assertEquals(AdaptiveSpin.HIT, spin.score());
    }

    @Test
    void oneHitInFiveKeepsTheWorkerSpinningAndOneInSixDoesNot() {
        for (int round = 0; round < 200; round++) {
            for (int miss = 0; miss < AdaptiveSpin.HIT; miss++) {
                assertTrue(spin.shouldSpin(), "round " + round);
                spin.spun(false);
            }
            assertTrue(spin.shouldSpin());
            spin.spun(true);
        }
        for (int round = 0; round < 200 && spin.score() > 0; round++) {
            for (int miss = 0; miss < AdaptiveSpin.HIT + 1 && spin.shouldSpin(); miss++) {
                spin.spun(false);
            }
            if (spin.shouldSpin()) {
                spin.spun(true);
            }
        }
        assertEquals(0, spin.score(), "one hit in six runs the score down");
    }
}
