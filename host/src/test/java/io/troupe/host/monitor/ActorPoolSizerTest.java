package io.troupe.host.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.troupe.host.plugin.PoolSample;

class ActorPoolSizerTest {

    private static final long MS = 1_000_000L;
    private static final long SECOND = 1_000 * MS;
    private static final int MIN = 1;
    private static final int MAX = 4;

    private final ActorPoolSizer sizer = new ActorPoolSizer(ActorPoolSettings.defaults()
            .withHighWater(1).withGrowAfter(Duration.ofSeconds(1)).withIdlePeriod(Duration.ofSeconds(30))
            .withCooldown(Duration.ofSeconds(2)));

    /** {@code size} members, none stalled, {@code backlog} messages waiting, {@code busy} in receive. */
    private static PoolSample load(int size, long backlog, int busy) {
        return new PoolSample(size, backlog, backlog, busy, 0, 0);
    }

    private static PoolSample idle(int size) {
        return load(size, 0, 0);
    }

    @Test
    void growsByOneWhenTheBacklogPerMemberStaysAboveTheHighWaterMark() {
        for (long t = 0; t < 1000; t += 250) {
            assertTrue(sizer.decide(t * MS, load(1, 5, 1), MIN, MAX).isNone(), "at " + t + " ms");
        }
        ActorPoolSizer.Decision decision = sizer.decide(1000 * MS, load(1, 5, 1), MIN, MAX);
        assertEquals(1, decision.delta());
        assertTrue(decision.reason().contains("5 message(s) waiting for 1 healthy member(s)"), decision.reason());
        assertTrue(decision.reason().contains("for 1000 ms (5 looks)"), decision.reason());
    }

    @Test
    void doesNotGrowOnAShortBurst() {
        assertTrue(sizer.decide(0, load(1, 50, 1), MIN, MAX).isNone());
        assertTrue(sizer.decide(250 * MS, load(1, 20, 1), MIN, MAX).isNone());
        assertTrue(sizer.decide(500 * MS, load(1, 1, 1), MIN, MAX).isNone()); // at the mark, not above
        assertTrue(sizer.decide(750 * MS, load(1, 40, 1), MIN, MAX).isNone()); // a new burst starts over
        assertTrue(sizer.decide(1500 * MS, load(1, 40, 1), MIN, MAX).isNone());
        assertEquals(1, sizer.decide(1750 * MS, load(1, 40, 1), MIN, MAX).delta());
    }

    @Test
    void needsTwoLooksEvenWhenTheMonitorLooksRarely() {
        assertTrue(sizer.decide(0, load(1, 5, 1), MIN, MAX).isNone());
        assertEquals(1, sizer.decide(5 * SECOND, load(1, 5, 1), MIN, MAX).delta());
    }

    @Test
    void waitsForTheCooldownBetweenChangesAndStopsAtTheMaximum() {
        long t = 0;
        int size = 1;
        int changes = 0;
        long lastChange = Long.MIN_VALUE;
        for (; t <= 30 * SECOND; t += 250 * MS) {
            ActorPoolSizer.Decision decision = sizer.decide(t, load(size, 100, size), MIN, MAX);
            if (!decision.isNone()) {
                assertEquals(1, decision.delta());
                assertTrue(lastChange == Long.MIN_VALUE || t - lastChange >= 2 * SECOND, "cooldown at " + t);
                lastChange = t;
                size++;
                changes++;
            }
        }
        assertEquals(MAX, size);
        assertEquals(MAX - 1, changes);
    }

    @Test
    void anyBacklogIsPressureWhenEveryMemberIsStalled() {
        PoolSample stuck = new PoolSample(1, 1, 0, 1, 1, 0);
        assertTrue(sizer.decide(0, stuck, MIN, MAX).isNone());
        ActorPoolSizer.Decision decision = sizer.decide(SECOND, stuck, MIN, MAX);
        assertEquals(1, decision.delta());
        assertTrue(decision.reason().contains("all 1 member(s) stalled while 1 message(s) wait"), decision.reason());
    }

    @Test
    void messagesStuckBehindAStalledMemberDoNotGrowThePoolFurther() {
        PoolSample oneStalled = new PoolSample(2, 7, 0, 2, 1, 0); // 7 waiting behind the stalled member
        for (long t = 0; t < 10 * SECOND; t += 250 * MS) {
            assertTrue(sizer.decide(t, oneStalled, MIN, MAX).isNone(), "at " + t);
        }
    }

    @Test
    void shrinksByOneAfterAWholeIdlePeriodThenOncePerCooldown() {
        assertTrue(sizer.decide(0, idle(3), MIN, MAX).isNone());
        assertTrue(sizer.decide(29 * SECOND, idle(3), MIN, MAX).isNone());
        ActorPoolSizer.Decision decision = sizer.decide(30 * SECOND, idle(3), MIN, MAX);
        assertEquals(-1, decision.delta());
        assertTrue(decision.reason().contains("idle (no message waiting, no turn running) for at least 30 s"),
                decision.reason());
        assertTrue(sizer.decide(31 * SECOND, idle(2), MIN, MAX).isNone()); // cooling down
        assertEquals(-1, sizer.decide(32 * SECOND, idle(2), MIN, MAX).delta());
        assertTrue(sizer.decide(60 * SECOND, idle(1), MIN, MAX).isNone()); // at the minimum
    }

    @Test
    void anyActivityRestartsTheIdlePeriod() {
        assertTrue(sizer.decide(0, idle(2), MIN, MAX).isNone());
        assertTrue(sizer.decide(20 * SECOND, load(2, 0, 1), MIN, MAX).isNone()); // a turn running, no backlog
        assertTrue(sizer.decide(21 * SECOND, idle(2), MIN, MAX).isNone());
        assertTrue(sizer.decide(50 * SECOND, idle(2), MIN, MAX).isNone());
        assertEquals(-1, sizer.decide(51 * SECOND, idle(2), MIN, MAX).delta());
    }

    @Test
    void aLoadBetweenIdleAndPressureKeepsTheSize() {
        for (long t = 0; t < 120 * SECOND; t += 250 * MS) {
            assertTrue(sizer.decide(t, load(3, 3, 3), MIN, MAX).isNone(), "at " + t); // 1 per member: at the mark
        }
    }

    @Test
    void doesNotShrinkRightAfterGrowing() {
        ActorPoolSizer quickIdle = new ActorPoolSizer(ActorPoolSettings.defaults().withGrowAfter(Duration.ZERO)
                .withIdlePeriod(Duration.ofMillis(100)).withCooldown(Duration.ofSeconds(2)));
        assertTrue(quickIdle.decide(0, load(1, 5, 1), MIN, MAX).isNone());
        assertEquals(1, quickIdle.decide(250 * MS, load(1, 5, 1), MIN, MAX).delta());
        assertTrue(quickIdle.decide(500 * MS, idle(2), MIN, MAX).isNone());
        assertTrue(quickIdle.decide(1500 * MS, idle(2), MIN, MAX).isNone());
        assertEquals(-1, quickIdle.decide(2250 * MS, idle(2), MIN, MAX).delta());
    }
}
