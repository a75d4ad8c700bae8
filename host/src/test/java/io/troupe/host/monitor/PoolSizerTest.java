package io.troupe.host.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class PoolSizerTest {

    private static final long SECOND = 1_000_000_000L;
    private final PoolSizer sizer = new PoolSizer(2, 8, Duration.ofSeconds(30));

    @Test
    void growsToKeepTheConfiguredNumberOfWorkersFreeWhenWorkersStallAndActorsWait() {
        PoolSizer.Decision decision = sizer.decide(SECOND, 2, 2, 1, 5);
        assertEquals(1, decision.delta());
        assertTrue(decision.reason().contains("1 of 2 workers stalled"), decision.reason());
        assertEquals(2, sizer.decide(SECOND, 2, 2, 2, 5).delta());
    }

    @Test
    void growsNoMoreThanTheActorsWaiting() {
        assertEquals(1, sizer.decide(SECOND, 2, 2, 2, 1).delta());
    }

    @Test
    void doesNotGrowWhenNoActorWaits() {
        assertTrue(sizer.decide(SECOND, 2, 2, 2, 0).isNone());
    }

    @Test
    void doesNotGrowAPoolThatIsOnlySaturated() {
        assertTrue(sizer.decide(SECOND, 2, 2, 0, 100).isNone());
    }

    @Test
    void neverGrowsBeyondTheMaximum() {
        assertEquals(1, sizer.decide(SECOND, 7, 7, 7, 100).delta());
        assertTrue(sizer.decide(SECOND, 8, 8, 8, 100).isNone());
    }

    @Test
    void keepsTheReplacementsWhileTheStalledWorkersStayStuck() {
        for (long t = 1; t < 100; t++) {
            assertTrue(sizer.decide(t * SECOND, 4, 2, 2, 0).isNone(), "at " + t + " s");
        }
    }

    @Test
    void retiresTheSurplusOnlyAfterAWholeIdlePeriod() {
        assertTrue(sizer.decide(SECOND, 4, 1, 0, 0).isNone());
        assertTrue(sizer.decide(30 * SECOND, 4, 1, 0, 0).isNone());
        PoolSizer.Decision decision = sizer.decide(31 * SECOND, 4, 1, 0, 0);
        assertEquals(-2, decision.delta());
        assertTrue(decision.reason().contains("not needed for 30 s"), decision.reason());
    }

    @Test
    void retiresNoMoreWorkersThanAreIdle() {
        sizer.decide(SECOND, 4, 3, 0, 0);
        assertEquals(-1, sizer.decide(31 * SECOND, 4, 3, 0, 0).delta());
    }

    @Test
    void aLookWithQueuedActorsOrNoIdleWorkerRestartsTheIdlePeriod() {
        sizer.decide(SECOND, 4, 1, 0, 0);
        sizer.decide(20 * SECOND, 4, 1, 0, 3);
        assertTrue(sizer.decide(31 * SECOND, 4, 1, 0, 0).isNone());
        sizer.decide(40 * SECOND, 4, 4, 0, 0);
        assertTrue(sizer.decide(61 * SECOND, 4, 1, 0, 0).isNone());
        assertEquals(-2, sizer.decide(91 * SECOND, 4, 1, 0, 0).delta());
    }

    @Test
    void neverShrinksAtOrBelowTheConfiguredSize() {
        for (long t = 1; t < 100; t++) {
            assertTrue(sizer.decide(t * SECOND, 2, 0, 0, 0).isNone(), "at " + t + " s");
        }
    }
}
