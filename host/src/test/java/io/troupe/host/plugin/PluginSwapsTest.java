package io.troupe.host.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.troupe.api.Actor;
import io.troupe.api.ActorContext;
import io.troupe.api.ActorFactory;
import io.troupe.api.ActorRef;
import io.troupe.host.dispatch.WorkerPool;

/**
 * {@link PluginSwaps} with real workers, as the plugin directory drives it: tenants that arrive while
 * a swap is under way, before its actors moved or after, are served by the next revision with their
 * messages; a refused swap leaves them on the old one.
 */
class PluginSwapsTest {

    private static final Duration BOUND = Duration.ofSeconds(10);

    private final WorkerPool workers = new WorkerPool(2, 2, "swap-test-worker", PluginSwapsTest.class.getClassLoader());
    private final PoolFixture fixture = new PoolFixture(workers);
    private final PluginSwaps swaps = new PluginSwaps(fixture.system, fixture.scheduler(), Duration.ofSeconds(10),
            plugin -> { });

    @AfterEach
    void close() throws InterruptedException {
        fixture.close();
        assertTrue(workers.shutdown(5, TimeUnit.SECONDS));
    }


    /** A revision of the "greet" handler: counts, and carries the count across swaps. */
    private static final class Greeter implements Actor {
        private final String version;
        private final boolean stubborn;
        private long count;

        Greeter(String version, boolean stubborn) {
            this.version = version;
            this.stubborn = stubborn;
        }

        @Override
        public void receive(ActorContext ctx, Object message) {
            ctx.reply(version + ":" + ++count + ":" + message);
        }

        @Override
        public Object exportState(ActorContext ctx) {
            if (stubborn) {
                throw new IllegalStateException("not now");
            }
            return count;
        }

        @Override
        public void importState(ActorContext ctx, Object state) {
            count = (Long) state;
        }
    }

    private PluginFactory revision(String version, boolean stubborn) {
        return PluginService.factory(ServiceWithoutBundle.reference(), () -> new Greeter(version, stubborn),
                List.of("greet"), List.of(), null, null);
    }

    private static Object ask(ActorRef target, String message) throws Exception {
        return target.ask(message, BOUND).toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private List<String> begin(PluginFactory current) throws InterruptedException {
        return swaps.begin(current.symbolicName(), "greet 1", PluginSwapsTest.class.getClassLoader(),
                List.of(current));
    }

    @Test
    void tenantsArrivingDuringAndAfterTheSwapAreServedByTheNextRevision() throws Exception {
        PluginFactory v1 = revision("v1", false);
        ActorRef early = v1.handlerActor("early", fixture.system);
        assertEquals("v1:1:a", ask(early, "a"));

        assertEquals(List.of(), begin(v1));
        CompletableFuture<Object> queued = early.ask("b", BOUND).toCompletableFuture();
        ActorRef during = v1.handlerActor("during", fixture.system); // spawned detached
        CompletableFuture<Object> waiting = during.ask("c", BOUND).toCompletableFuture();
        PluginFactory v2 = revision("v2", false);
        assertTrue(swaps.offer(v2));
        PluginSwaps.Completion done = swaps.complete(v2.symbolicName(), Class::forName, "greet 2");
        assertEquals(List.of(), done.failures());
        assertEquals(2, done.moved());

        assertEquals("v2:2:b", queued.get(10, TimeUnit.SECONDS), "the early tenant kept its count");
        assertEquals("v2:1:c", waiting.get(10, TimeUnit.SECONDS), "the tenant that came during the swap started on v2");
        ActorRef late = v1.handlerActor("late", fixture.system); // a caller that looked the name up before
        assertEquals("v2:1:d", ask(late, "d"));
        assertSame(late, v2.handlerActor("late", fixture.system), "served by the next revision's service");
        assertSame(early, v2.handlerActor("early", fixture.system));
        assertSame(during, v2.handlerActor("during", fixture.system));
        assertEquals(3, v2.actors().size());
    }

    @Test
    void aRefusedSwapResumesEveryActorOnTheOldRevisionIncludingThoseSpawnedMeanwhile() throws Exception {
        PluginFactory v1 = revision("v1", true);
        ActorRef first = v1.handlerActor("first", fixture.system);
        assertEquals("v1:1:a", ask(first, "a"));

        List<String> refused = begin(v1);
        assertEquals(1, refused.size(), refused.toString());
        assertTrue(refused.get(0).contains("not now"), refused.get(0));
        assertEquals("v1:2:b", ask(first, "b"), "the same instance, with its count");
        ActorRef second = v1.handlerActor("second", fixture.system);
        assertEquals("v1:1:c", ask(second, "c"), "a new tenant after the refusal starts as usual");
        assertNotEquals(first, second);
        assertTrue(!swaps.isSwapping(v1.symbolicName()));
    }

    @Test
    void aNextRevisionThatLacksTheHandlerIsRefusedAndTheActorsWaitForAnother() throws Exception {
        PluginFactory v1 = revision("v1", false);
        ActorRef actor = v1.handlerActor("t", fixture.system);
        assertEquals("v1:1:a", ask(actor, "a"));
        assertEquals(List.of(), begin(v1));
        CompletableFuture<Object> queued = actor.ask("b", BOUND).toCompletableFuture();

        PluginFactory other = PluginService.factory(ServiceWithoutBundle.reference(),
                () -> new Greeter("other", false), List.of("hello"), List.of(), null, null);
        swaps.offer(other);
        PluginSwaps.Completion refused = swaps.complete(other.symbolicName(), Class::forName, "greet 2");
        assertEquals(1, refused.failures().size(), refused.failures().toString());
        assertTrue(refused.failures().get(0).contains("handler 'greet' is not registered by greet 2"),
                refused.failures().get(0));
        assertTrue(other.isRefused());

        PluginFactory rollback = revision("v1-again", false);
        swaps.offer(rollback);
        assertTrue(swaps.ready(rollback.symbolicName(), Set.of("greet")));
        assertEquals(List.of(), swaps.complete(rollback.symbolicName(), Class::forName, "greet 1").failures());
        assertEquals("v1-again:2:b", queued.get(10, TimeUnit.SECONDS));
    }
}
