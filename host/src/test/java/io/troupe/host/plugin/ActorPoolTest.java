package io.troupe.host.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.troupe.api.ActorFactory;
import io.troupe.api.ActorRef;

class ActorPoolTest {

    private final TaskQueue turns = new TaskQueue();
    private final PoolFixture fixture = new PoolFixture(turns);
    /** Messages received, by the id of the member that received them. */
    private final Map<Long, List<Object>> received = new ConcurrentHashMap<>();
    private final ActorFactory recorder = () -> (ctx, message) ->
            received.computeIfAbsent(ctx.self().id(), id -> new ArrayList<>()).add(message);

    @AfterEach
    void close() throws InterruptedException {
        fixture.close();
    }

    private int depth(ActorRef member) {
        return fixture.system.mailboxDepth(member);
    }

    @Test
    void startsWithTheMinimumAndRoutesEachMessageToTheLeastLoadedMember() {
        ActorPool pool = fixture.pool(recorder, 3, 5);
        List<ActorRef> members = pool.members();
        assertEquals(3, members.size());
        assertEquals(List.of(pool), fixture.pools.pools());
        for (int i = 0; i < 9; i++) {
            pool.tell("m" + i);
        }
        for (ActorRef member : members) {
            assertEquals(3, depth(member), member.toString()); // nothing ran: each got a third
        }
        turns.runUntilIdle();
        assertEquals(9, received.values().stream().mapToInt(List::size).sum());
        assertEquals(Set.copyOf(members.stream().map(ActorRef::id).toList()), received.keySet());
    }

    @Test
    void skipsStalledMembersUnlessEveryMemberIsStalled() {
        ActorPool pool = fixture.pool(recorder, 2, 2);
        ActorRef first = pool.members().get(0);
        ActorRef second = pool.members().get(1);
        pool.observeStalls(Set.of(first.id()));
        for (int i = 0; i < 4; i++) {
            pool.tell("m" + i);
        }
        assertEquals(0, depth(first));
        assertEquals(4, depth(second));
        PoolSample sample = pool.sample();
        assertEquals(new PoolSample(2, 4, 4, 0, 1, 0), sample);

        pool.observeStalls(Set.of(first.id(), second.id()));
        pool.tell("x");
        assertEquals(1, depth(first), "with every member stalled, the least loaded one still gets it");
        pool.observeStalls(Set.of());
        assertEquals(0, pool.sample().stalled());
    }

    @Test
    void growsAndShrinksWithinItsBounds() {
        ActorPool pool = fixture.pool(recorder, 1, 3);
        assertTrue(pool.grow());
        assertTrue(pool.grow());
        assertFalse(pool.grow(), "at the maximum");
        assertEquals(3, pool.members().size());
        assertTrue(pool.shrink());
        assertTrue(pool.shrink());
        assertFalse(pool.shrink(), "at the minimum");
        assertEquals(1, pool.members().size());
        assertEquals(2, pool.sample().retiring());
    }

    @Test
    void aRetiredMemberFinishesItsQueueAndSendsStragglersBackToThePool() {
        ActorPool pool = fixture.pool(recorder, 1, 2);
        pool.grow();
        ActorRef kept = pool.members().get(0);
        ActorRef retired = pool.members().get(1);
        for (int i = 0; i < 4; i++) {
            pool.tell("m" + i); // two each
        }
        assertTrue(pool.shrink());
        assertEquals(List.of(kept), pool.members(), "the newest member among the least loaded retires");
        assertEquals(0, pool.reapRetired(), "it still has messages queued");
        assertFalse(retired.isStopped());

        pool.tell("after-shrink");
        assertEquals(3, depth(kept), "no new message is routed to the retired member");
        turns.runUntilIdle();
        assertEquals(List.of("m1", "m3"), received.get(retired.id()), "it finished its own queue");
        assertEquals(1, pool.reapRetired());
        turns.runUntilIdle();
        assertTrue(retired.isStopped());

        retired.tell("straggler"); // a sender that read the member list before the shrink
        turns.runUntilIdle();
        assertEquals(List.of("m0", "m2", "after-shrink", "straggler"), received.get(kept.id()));
        assertEquals(List.of(), fixture.deadLetters);
        assertEquals(0, pool.sample().retiring());
    }

    @Test
    void replacesMembersThatStoppedForGood() {
        ActorPool pool = fixture.pool(recorder, 2, 2);
        ActorRef lost = pool.members().get(1);
        fixture.system.stop(lost, io.troupe.host.actor.StopReason.NORMAL);
        turns.runUntilIdle();
        assertTrue(lost.isStopped());
        assertEquals(1, pool.replaceStopped());
        assertEquals(2, pool.members().size());
        assertFalse(pool.members().contains(lost));
        for (int i = 0; i < 4; i++) {
            pool.tell("m" + i);
        }
        turns.runUntilIdle();
        assertEquals(4, received.values().stream().mapToInt(List::size).sum());
        assertEquals(List.of(), fixture.deadLetters);
    }

    @Test
    void aFailingMemberIsRestartedLikeAnyActorAndKeepsServing() {
        ActorFactory failing = () -> (ctx, message) -> {
            if ("boom".equals(message)) {
                throw new IllegalStateException("boom (expected by the test)");
            }
            received.computeIfAbsent(ctx.self().id(), id -> new ArrayList<>()).add(message);
        };
        ActorPool pool = fixture.pool(failing, 1, 1);
        ActorRef member = pool.members().get(0);
        pool.tell("boom");
        turns.runUntilIdle();
        pool.tell("after");
        turns.runUntilIdle();
        assertEquals(List.of(member), pool.members(), "restarted in place, not replaced");
        assertEquals(List.of("after"), received.get(member.id()));
        assertEquals(1, fixture.deadLetters.size(), "the failing message, as for any actor");
        assertEquals("receive failed", fixture.deadLetters.get(0).reason());
    }

    @Test
    void isAnActorReferenceOfItsOwn() {
        ActorPool pool = fixture.pool(recorder, 1, 2);
        assertEquals("handler:test@t1", pool.name());
        assertNotEquals(pool.members().get(0).id(), pool.id());
        assertEquals(0, pool.parentId());
        assertFalse(pool.isStopped());
        pool.close();
        assertTrue(pool.isStopped());
        assertEquals(List.of(), fixture.pools.pools());
        assertFalse(pool.grow(), "a closed pool spawns no member");
    }
}
