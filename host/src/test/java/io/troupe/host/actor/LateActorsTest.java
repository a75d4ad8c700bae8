package io.troupe.host.actor;

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
 * recorded before the decision, after it, or while it is being made; those the swap handled itself
 * never do.
 */
class LateActorsTest {

    private static final FactorySource SOURCE = FactorySource.of(() -> (ctx, message) -> { }, "handler:late");

    private static DetachedActor late(long id, String tenant) {
        ActorRef ref = (ActorRef) Proxy.newProxyInstance(LateActorsTest.class.getClassLoader(),
                new Class<?>[] {ActorRef.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "id" -> id;
                    case "hashCode" -> Long.hashCode(id);
                    case "equals" -> proxy == args[0];
                    case "toString" -> "actor#" + id;
                    default -> null;
                });
        return new DetachedActor(ref, SOURCE, tenant, null, false, true);
    }

    @Test
    void actorsBeforeAndAfterTheDecisionAreHandedOverOnceAndHandledOnesNever() {
        LateActors late = new LateActors();
        DetachedActor before = late(1, "t1");
        DetachedActor handled = late(2, "");
        DetachedActor after = late(3, "");
        DetachedActor handledAfter = late(4, "");
        late.add(before);
        late.add(handled);
        List<String> decided = new ArrayList<>();
        Set<Long> handledIds = Set.of(2L, 4L);
        late.decide(actor -> decided.add(actor.ref() + "@" + actor.tenant()), ref -> handledIds.contains(ref.id()));
        assertEquals(List.of("actor#1@t1"), decided);
        late.add(after);
        late.add(handledAfter);
        assertEquals(List.of("actor#1@t1", "actor#3@"), decided);
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
                            late.add(late(base + i, ""));
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
            late.decide(actor -> {
                if (!seen.add(actor.ref().id())) {
                    duplicates.incrementAndGet();
                }
            }, ref -> false);
            assertTrue(done.await(10, TimeUnit.SECONDS));
            assertEquals(0, duplicates.get(), "round " + round);
            assertEquals(spawners * perSpawner, seen.size(), "round " + round + ": every actor decided");
        }
    }
}
