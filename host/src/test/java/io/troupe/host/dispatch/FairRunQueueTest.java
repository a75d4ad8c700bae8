package io.troupe.host.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

/**
 * The fair run queue on its own, driven by a simulated worker that charges each task a chosen cost:
 * deterministic, no threads except in the last test.
 */
class FairRunQueueTest {

    /** A task of one group whose simulated turn costs {@code nanos}. */
    private record Turn(RunGroup group, long nanos, int number) implements Runnable, Grouped {
        @Override
        public void run() {
        }

        @Override
        public RunGroup runGroup() {
            return group;
        }
    }

    /** A worker's side of a turn: the lane it claimed. */
    private static final class Claim implements FairRunQueue.Taker {
        RunGroup lane;

        @Override
        public void entered(RunGroup entered) {
            lane = entered;
        }

        /** The turn ended: leaves the lane claimed, if any. */
        void end() {
            if (lane != null) {
                lane.leave();
                lane = null;
            }
        }
    }

    private static final int NO_CAP = Integer.MAX_VALUE;

    private final FairRunQueue queue = new FairRunQueue(64);
    private final Claim claim = new Claim();

    /** Polls one task and charges its cost, as a worker does; returns it. */
    private Turn serve() {
        Turn turn = (Turn) queue.poll(claim, NO_CAP);
        assertNotNull(turn, "a task was waiting");
        turn.group().charge(turn.nanos());
        claim.end();
        return turn;
    }

    /** Keeps every group in {@code groups} saturated, serves {@code turns} turns, returns worker time per group. */
    private Map<RunGroup, Long> saturate(Map<RunGroup, Long> costs, int turns) {
        Map<RunGroup, Long> used = new HashMap<>();
        costs.forEach((group, cost) -> {
            for (int i = 0; i < 4; i++) {
                queue.offer(new Turn(group, cost, i));
            }
        });
        for (int i = 0; i < turns; i++) {
            Turn turn = serve();
            used.merge(turn.group(), turn.nanos(), Long::sum);
            queue.offer(new Turn(turn.group(), turn.nanos(), turn.number() + 4)); // it always has more
        }
        return used;
    }

    @Test
    void withoutTenantsItIsOneLaneAndTimesNothing() {
        Runnable plain = () -> { };
        queue.offer(plain);
        assertEquals(1, queue.groups().size());
        assertFalse(queue.measures(queue.groupOf(plain)));
        assertSame(plain, queue.poll(claim, NO_CAP));
        assertNull(claim.lane, "one lane: nothing is counted");
        assertNull(queue.poll(claim, NO_CAP));
    }

    @Test
    void aTenantsLaneIsCreatedOnceAndTimedFromThenOn() {
        RunGroup acme = queue.group("acme");
        assertSame(acme, queue.group("acme"));
        assertSame(queue.groupOf(() -> { }), queue.group(""));
        assertEquals(2, queue.groups().size());
        assertTrue(queue.measures(acme));
        assertTrue(queue.measures(queue.group(null)), "once tenants exist, every lane is timed");
    }

    @Test
    void aFloodInOneLaneDoesNotDelayAnotherLanesTask() {
        RunGroup flood = queue.group("flood");
        RunGroup quiet = queue.group("quiet");
        for (int i = 0; i < 1000; i++) {
            queue.offer(new Turn(flood, 50_000, i));
        }
        serve();
        serve(); // the flood has run a little: it is ahead of the quiet lane
        queue.offer(new Turn(quiet, 10_000, 0));
        assertSame(quiet, serve().group(), "the quiet tenant's task runs next, not after 998 others");
    }

    @Test
    void theRuntimesOwnActorsKeepRunningUnderATenantsFlood() {
        RunGroup flood = queue.group("flood");
        for (int i = 0; i < 1000; i++) {
            queue.offer(new Turn(flood, 200_000, i));
        }
        for (int i = 0; i < 50; i++) {
            serve(); // the flood has run 10 ms
        }
        Runnable sessionActor = () -> { };
        queue.offer(sessionActor);
        assertSame(queue.group(""), queue.groupOf(sessionActor));
        assertSame(sessionActor, queue.poll(claim, NO_CAP), "a task of no tenant runs next");
        claim.end();
    }

    @Test
    void workerTimeIsSharedEquallyWhateverATurnCosts() {
        RunGroup burner = queue.group("burner");
        RunGroup light = queue.group("light");
        Map<RunGroup, Long> used = saturate(Map.of(burner, 5_000_000L, light, 20_000L), 20_000);
        double ratio = (double) used.get(burner) / used.get(light);
        assertTrue(ratio > 0.9 && ratio < 1.1, "a 5 ms turn does not buy 250 times the share: ratio " + ratio);
    }

    @Test
    void weightsSetTheShares() {
        RunGroup heavy = queue.group("heavy");
        RunGroup normal = queue.group("normal");
        heavy.weight(3);
        Map<RunGroup, Long> used = saturate(Map.of(heavy, 100_000L, normal, 100_000L), 8_000);
        double ratio = (double) used.get(heavy) / used.get(normal);
        assertTrue(ratio > 2.85 && ratio < 3.15, "weight 3 against 1 gives three times the time: " + ratio);
    }

    @Test
    void noLaneStarvesAmongMany() {
        List<RunGroup> groups = new ArrayList<>();
        Map<RunGroup, Long> costs = new HashMap<>();
        for (int i = 0; i < 20; i++) {
            RunGroup group = queue.group("tenant-" + i);
            groups.add(group);
            costs.put(group, 10_000L * (i + 1)); // 10 µs to 200 µs turns
        }
        Map<RunGroup, Long> used = saturate(costs, 20_000);
        long total = used.values().stream().mapToLong(Long::longValue).sum();
        for (RunGroup group : groups) {
            double share = (double) used.getOrDefault(group, 0L) / total;
            assertTrue(share > 0.04 && share < 0.06, group + " got " + share + " of the time, not about 1/20");
        }
    }

    @Test
    void aLaneBackFromIdlenessGetsABoundedBurstNotItsUnusedTime() {
        RunGroup busy = queue.group("busy");
        RunGroup sleeper = queue.group("sleeper");
        // the busy lane runs alone for a long time: 10 000 turns of 100 µs = 1 s of worker time
        saturate(Map.of(busy, 100_000L), 10_000);
        for (int i = 0; i < 1000; i++) {
            queue.offer(new Turn(sleeper, 100_000, i));
        }
        int sleeperInARow = 0;
        while (serve().group() == sleeper) {
            sleeperInARow++;
        }
        long lagTurns = RunGroup.MAX_LAG_NANOS / 100_000;
        assertTrue(sleeperInARow >= 1 && sleeperInARow <= lagTurns + 2,
                "back from idleness it runs first, for about its lag, not for 1 s: " + sleeperInARow + " turns");
    }

    @Test
    void aLaneKeepsTheOrderOfItsTasks() {
        RunGroup acme = queue.group("acme");
        RunGroup other = queue.group("other");
        for (int i = 0; i < 500; i++) {
            queue.offer(new Turn(acme, 1_000, i));
            queue.offer(new Turn(other, 3_000, i));
        }
        int next = 0;
        for (int i = 0; i < 1000; i++) {
            Turn turn = serve();
            if (turn.group() == acme) {
                assertEquals(next++, turn.number());
            }
        }
        assertEquals(500, next);
    }

    @Test
    void aSlotTaskYieldsOnlyToALaneFurtherBehind() {
        RunGroup ahead = queue.group("ahead");
        RunGroup behind = queue.group("behind");
        ahead.charge(10_000_000);
        Turn own = new Turn(ahead, 1, 0);
        assertTrue(queue.admitLocal(own, claim, NO_CAP), "nobody else waits");
        assertSame(ahead, claim.lane);
        claim.end();
        queue.offer(new Turn(behind, 1, 0));
        assertFalse(queue.admitLocal(own, claim, NO_CAP), "a lane further behind waits");
        assertEquals(1, ahead.queued(), "the slot task went to its lane");
        assertTrue(queue.admitLocal(new Turn(behind, 1, 1), claim, NO_CAP), "the lane furthest behind runs");
        claim.end();
    }

    @Test
    void aTenantAtTheCapWaitsAndOthersRun() {
        RunGroup burner = queue.group("burner");
        RunGroup quiet = queue.group("quiet");
        for (int i = 0; i < 10; i++) {
            queue.offer(new Turn(burner, 5_000_000, i));
        }
        Claim first = new Claim();
        Claim second = new Claim();
        assertSame(burner, ((Turn) queue.poll(first, 2)).group());
        assertSame(burner, ((Turn) queue.poll(second, 2)).group());
        assertEquals(2, burner.running());
        assertNull(queue.poll(claim, 2), "two turns of one tenant at once is its cap: the reserve worker waits");
        queue.offer(new Turn(quiet, 10_000, 0));
        assertSame(quiet, ((Turn) queue.poll(claim, 2)).group(), "and takes the next tenant's actor at once");
        claim.end();
        first.end();
        assertSame(burner, ((Turn) queue.poll(claim, 2)).group(), "room again once a turn ended");
        claim.end();
        second.end();
        Runnable plain = () -> { };
        queue.offer(plain);
        queue.offer(() -> { });
        assertSame(plain, queue.poll(new Claim(), 1), "tasks of no tenant are not capped");
        assertNotNull(queue.poll(new Claim(), 1));
        assertEquals(0, burner.running());
    }

    @Test
    void concurrentProducersAndConsumersLoseAndDuplicateNothing() throws InterruptedException {
        int producers = 4;
        int perProducer = 20_000;
        List<RunGroup> groups = List.of(queue.group("a"), queue.group("b"), queue.group(""));
        Set<Integer> seen = ConcurrentHashMap.newKeySet();
        AtomicInteger duplicates = new AtomicInteger();
        AtomicInteger taken = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(producers + 2);
        for (int p = 0; p < producers; p++) {
            int base = p * perProducer;
            new Thread(() -> {
                for (int i = 0; i < perProducer; i++) {
                    queue.offer(new Turn(groups.get(i % groups.size()), 1_000, base + i));
                }
                done.countDown();
            }).start();
        }
        for (int c = 0; c < 2; c++) {
            new Thread(() -> {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                Claim own = new Claim();
                while (taken.get() < producers * perProducer && System.nanoTime() < deadline) {
                    Turn turn = (Turn) queue.poll(own, NO_CAP);
                    if (turn != null) {
                        turn.group().charge(turn.nanos());
                        own.end();
                        taken.incrementAndGet();
                        if (!seen.add(turn.number())) {
                            duplicates.incrementAndGet();
                        }
                    }
                }
                done.countDown();
            }).start();
        }
        assertTrue(done.await(60, TimeUnit.SECONDS));
        assertEquals(producers * perProducer, seen.size());
        assertEquals(0, duplicates.get());
        assertNull(queue.poll(claim, NO_CAP));
        groups.forEach(group -> assertEquals(0, group.running(), group + " left every turn it entered"));
    }
}
