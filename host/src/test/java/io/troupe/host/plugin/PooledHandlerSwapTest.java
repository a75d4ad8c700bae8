package io.troupe.host.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.troupe.api.ActorFactory;
import io.troupe.api.ActorRef;
import io.troupe.api.ErrorCode;
import io.troupe.api.TroupeException;
import io.troupe.host.actor.StopReason;
import io.troupe.host.dispatch.WorkerPool;

/**
 * A poolable handler through a hot swap and a removal, as the plugin directory drives them: every
 * member moves to the new revision with its mailbox, the pool keeps its identity and spawns new
 * members from the new revision, and removing the plugin stops every member, with requests
 * answered {@code no.handler}.
 */
class PooledHandlerSwapTest {

    private static final Duration BOUND = Duration.ofSeconds(10);

    private final WorkerPool workers = new WorkerPool(2, 2, "pool-swap-worker",
            PooledHandlerSwapTest.class.getClassLoader());
    private final PoolFixture fixture = new PoolFixture(workers);
    private final PluginSwaps swaps = new PluginSwaps(fixture.system, fixture.scheduler(), Duration.ofSeconds(10),
            plugin -> { });

    @AfterEach
    void close() throws InterruptedException {
        fixture.close();
        assertTrue(workers.shutdown(5, TimeUnit.SECONDS));
    }


    private PluginFactory revision(String version) {
        ActorFactory factory = () -> (ctx, message) -> ctx.reply(version + ":" + message);
        return PluginService.factory(ServiceWithoutBundle.reference(), factory, List.of("greet"), List.of(),
                new PoolBounds(2, 3),
                fixture.pools);
    }

    private static Object ask(ActorRef target, String message) throws Exception {
        return target.ask(message, BOUND).toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void everyMemberMovesToTheNewRevisionAndTheRemovalStopsThemAll() throws Exception {
        PluginFactory v1 = revision("v1");
        ActorPool pool = assertInstanceOf(ActorPool.class, v1.handlerActor("t1", fixture.system));
        assertSame(pool, v1.handlerActor("t1", fixture.system));
        List<ActorRef> members = pool.members();
        assertEquals(2, members.size());
        assertEquals(members, v1.actors().stream().sorted((a, b) -> Long.compare(a.id(), b.id())).toList());
        assertEquals("v1:a", ask(pool, "a"));

        assertEquals(List.of(), swaps.begin(v1.symbolicName(), "greet 1", PooledHandlerSwapTest.class.getClassLoader(),
                List.of(v1)));
        List<CompletableFuture<Object>> waiting = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            waiting.add(pool.ask("queued-" + i, BOUND).toCompletableFuture()); // held in the members' mailboxes
        }
        PluginFactory v2 = revision("v2");
        assertTrue(swaps.offer(v2));
        assertTrue(swaps.ready(v2.symbolicName(), java.util.Set.of("greet")));
        PluginSwaps.Completion done = swaps.complete(v2.symbolicName(), Class::forName, "greet 2");
        assertEquals(List.of(), done.failures());
        assertEquals(List.of(v1), done.retired());
        assertEquals("2 handler actors", done.summary());
        swaps.end(v1.symbolicName());
        for (int i = 0; i < waiting.size(); i++) {
            assertEquals("v2:queued-" + i, waiting.get(i).get(10, TimeUnit.SECONDS));
        }
        assertSame(pool, v2.handlerActor("t1", fixture.system), "the pool itself moved");
        assertEquals(members, pool.members(), "the same members, now running the new revision");
        assertTrue(pool.isFedBy(v2));
        assertTrue(pool.grow());
        assertEquals(3, v2.actors().size(), "a new member comes from the new revision");
        for (int i = 0; i < 6; i++) {
            assertEquals("v2:b" + i, ask(pool, "b" + i));
        }

        v2.stopAll(fixture.system, new StopReason("code went away", ErrorCode.NO_HANDLER, null));
        assertTrue(pool.isStopped());
        ExecutionException failed = assertThrows(ExecutionException.class, () -> ask(pool, "late"));
        assertEquals(ErrorCode.NO_HANDLER, assertInstanceOf(TroupeException.class, failed.getCause()).code());
        assertEquals(List.of(), fixture.pools.pools());
        for (ActorRef member : pool.members()) {
            long deadline = System.nanoTime() + BOUND.toNanos();
            while (!member.isStopped()) {
                assertTrue(System.nanoTime() - deadline < 0, member + " did not stop");
                Thread.onSpinWait();
            }
        }
        // a member's stop is visible before the revision has forgotten it (that follows on its worker)
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (!v2.actors().isEmpty()) {
            assertTrue(System.nanoTime() - deadline < 0, "the revision still holds " + v2.actors());
            Thread.onSpinWait();
        }
    }

    @Test
    void anInvalidDeclarationServesTheHandlerWithOneActor() {
        assertEquals(java.util.Optional.empty(), PoolBounds.declared(0, 4, "s"));
        assertEquals(java.util.Optional.empty(), PoolBounds.declared(3, 2, "s"));
        assertEquals(java.util.Optional.empty(), PoolBounds.declared("two", 4, "s"));
        assertEquals(java.util.Optional.empty(), PoolBounds.declared(1, null, "s"));
        assertEquals(java.util.Optional.empty(), PoolBounds.declared(null, null, "s"));
        assertEquals(java.util.Optional.of(new PoolBounds(1, 4)), PoolBounds.declared(1, 4, "s"));
        assertEquals(java.util.Optional.of(new PoolBounds(2, 8)), PoolBounds.declared(" 2", "8", "s"));
        assertEquals(java.util.Optional.of(new PoolBounds(1, 1)), PoolBounds.declared(1L, 1L, "s"));

        PluginFactory single = PluginService.factory(ServiceWithoutBundle.reference(),
                () -> (ctx, message) -> ctx.reply(message),
                List.of("greet"), List.of(), PoolBounds.declared("x", 4, "s").orElse(null), fixture.pools);
        ActorRef handler = single.handlerActor("t1", fixture.system);
        assertTrue(!(handler instanceof ActorPool));
        assertEquals(List.of(), fixture.pools.pools());
    }
}
