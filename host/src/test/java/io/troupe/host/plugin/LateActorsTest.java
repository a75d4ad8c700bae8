package io.troupe.host.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.troupe.api.ActorRef;

/**
 * Every actor recorded in {@link LateActors} reaches the decision exactly once, whether it is
 * recorded before the decision, after it, or while it is being made.
 */
class LateActorsTest {

    private static ActorRef actor(long id) {
        return (ActorRef) Proxy.newProxyInstance(LateActorsTest.class.getClassLoader(), new Class<?>[] {ActorRef.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "id" -> id;
                    case "hashCode" -> Long.hashCode(id);
                    case "equals" -> proxy == args[0];
                    case "toString" -> "actor#" + id;
                    default -> null;
                });
    }

    @Test
    void actorsBeforeAndAfterTheDecisionAreHandedOverOnceAndHandledOnesAreSkipped() {
        LateActors late = new LateActors();
        ActorRef before = actor(1);
        ActorRef handled = actor(2);
        ActorRef after = actor(3);
        late.add(before, "t1");
        late.add(handled, "");
        List<String> decided = new ArrayList<>();
        late.decide((actor, tenant) -> decided.add(actor + "@" + tenant), Set.of(handled));
        assertEquals(List.of("actor#1@t1"), decided);
        late.add(after, "");
        assertEquals(List.of("actor#1@t1", "actor#3@"), decided);

        late.reset(); // the next swap: actors wait again
        late.add(actor(4), "t2");
        assertEquals(2, decided.size());
    }

    @Test
    void racingTheDecisionLosesAndDuplicatesNothing() throws Exception {
        for (int round = 0; round < 200; round++) {
            LateActors late = new LateActors();
            int spawners = 2;
            int perSpawner = 200;
            CyclicBarrier start = new CyclicBarrier(spawners + 1);
            CountDownLatch done = new CountDownLatch(spawners);
            Set<Long> seen = ConcurrentHashMap.newKeySet();
            AtomicInteger duplicates = new AtomicInteger();
            for (int s = 0; s < spawners; s++) {
                long base = (long) s * perSpawner;
                Thread spawner = new Thread(() -> {
                    try {
                        start.await(10, TimeUnit.SECONDS);
                        for (long i = 0; i < perSpawner; i++) {
                            late.add(actor(base + i), "");
                        }
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    } finally {
                        done.countDown();
                    }
                });
                spawner.start();
            }
            start.await(10, TimeUnit.SECONDS);
            late.decide((actor, tenant) -> {
                if (!seen.add(actor.id())) {
                    duplicates.incrementAndGet();
                }
            }, Set.of());
            assertTrue(done.await(10, TimeUnit.SECONDS));
            assertEquals(0, duplicates.get(), "round " + round);
            assertEquals(spawners * perSpawner, seen.size(), "round " + round + ": every actor decided");
        }
    }
}
