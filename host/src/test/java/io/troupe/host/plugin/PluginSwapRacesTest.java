package io.troupe.host.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.troupe.api.Actor;
import io.troupe.api.ActorContext;
import io.troupe.api.ActorFactory;
import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.host.dispatch.WorkerPool;

/**
 * {@link PluginSwaps} against actors created from a retired service after the swap decided, a
 * service whose factory class is not its bundle's, and an actor too busy to answer the detach.
 *
 * <p><b>Threading:</b> the test thread drives the swap; actors run on two real workers.
 */
class PluginSwapRacesTest {

    private static final Duration BOUND = Duration.ofSeconds(3);

    private final WorkerPool workers = new WorkerPool(2, 2, "swap-review-worker",
            PluginSwapRacesTest.class.getClassLoader());
    private final PoolFixture fixture = new PoolFixture(workers);
    private final PluginSwaps swaps = new PluginSwaps(fixture.system, fixture.scheduler(), Duration.ofSeconds(10),
            plugin -> { }, Duration.ofSeconds(1));

    @AfterEach
    void close() throws InterruptedException {
        fixture.close();
        assertTrue(workers.shutdown(5, TimeUnit.SECONDS));
    }


    private static final class Greeter implements Actor {
        private final String version;
        private final boolean failStart;

        Greeter(String version, boolean failStart) {
            this.version = version;
            this.failStart = failStart;
        }

        @Override
        public void preStart(ActorContext ctx) {
            if (failStart) {
                throw new IllegalStateException(version + " cannot start");
            }
        }

        @Override
        public void receive(ActorContext ctx, Object message) throws Exception {
            if (message instanceof CountDownLatch[] busy) {
                busy[0].countDown();
                busy[1].await(30, TimeUnit.SECONDS); // a long turn (a slow computation) while begin waits
                return;
            }
            ctx.reply(version + ":" + message);
        }
    }

    private static PluginFactory revision(String version, boolean failStart) {
        return PluginService.factory(ServiceWithoutBundle.reference(), () -> new Greeter(version, failStart),
                List.of("greet"),
                List.of("greet.f"), null, null);
    }

    /**
     * A pool member (or tenant handler) the retired service spawns after the decision starts on the
     * next revision; when that revision's preStart throws, the actor fails like any actor that cannot
     * start (its requests are answered), instead of waiting, detached, for ever.
     */
    @Test
    void aLateActorWhoseStartFailsOnTheNextRevisionIsNotStranded() throws Exception {
        PluginFactory v1 = revision("v1", false);
        assertEquals(List.of(), swaps.begin(v1.symbolicName(), "greet 1", PluginSwapRacesTest.class.getClassLoader(),
                List.of(v1)));
        PluginFactory v2 = revision("v2", true);
        swaps.offer(v2);
        assertEquals(List.of(), swaps.complete(v2.symbolicName(), Class::forName, "greet 2").failures());

        // an ActorPool still fed by v1 grows now (the monitor thread; moveTo has not run for it)
        ActorRef member = v1.spawnMember(fixture.system, "t", ActorOptions.defaults());
        Object answer;
        try {
            answer = member.ask("x", BOUND).toCompletableFuture().get(BOUND.toSeconds() + 2, TimeUnit.SECONDS);
        } catch (Exception e) {
            answer = e.getCause() == null ? e : e.getCause();
        }
        assertTrue(!(answer instanceof java.util.concurrent.TimeoutException),
                "the member hangs, detached and alive (stopped: " + member.isStopped() + "): " + answer);
    }

    /**
     * Spawning by factory name through the retired service (what PluginDirectory.resolve returned
     * before completeSwap republished) after the swap committed starts the actor on the next
     * revision, not on the old code.
     */
    @Test
    void anActorSpawnedByNameFromTheRetiredServiceAfterTheCommitDoesNotRunTheOldCode() throws Exception {
        PluginFactory v1 = revision("v1", false);
        assertEquals(List.of(), swaps.begin(v1.symbolicName(), "greet 1", PluginSwapRacesTest.class.getClassLoader(),
                List.of(v1)));
        PluginFactory v2 = revision("v2", false);
        swaps.offer(v2);
        assertEquals(List.of(), swaps.complete(v2.symbolicName(), Class::forName, "greet 2").failures());

        ActorRef spawned = fixture.system.spawn(v1.asFactory("greet.f"), ActorOptions.defaults(), "t");
        Object answer = spawned.ask("x", BOUND).toCompletableFuture().get(BOUND.toSeconds() + 2, TimeUnit.SECONDS);
        assertEquals("v2:x", answer, "the actor runs the retired revision's code");
    }

    /**
     * A service's own actors move with it even when the class of its factory object is not the
     * revision's (a library's generic factory): begin names them, and they take part whatever their
     * code loader.
     */
    @Test
    void theServicesOwnActorsMoveEvenWhenTheFactoryClassIsNotThePlugins() throws Exception {
        ClassLoader plugin = new ClassLoader(null) { }; // the revision's loader; the factory's class is not its
        PluginFactory v1 = revision("v1", false);
        ActorRef handler = v1.handlerActor("t", fixture.system);
        assertEquals("v1:a", handler.ask("a", BOUND).toCompletableFuture().get(5, TimeUnit.SECONDS));
        assertEquals(List.of(), swaps.begin(v1.symbolicName(), "greet 1", plugin, List.of(v1)));
        PluginFactory v2 = revision("v2", false);
        swaps.offer(v2);
        PluginSwaps.Completion done = swaps.complete(v2.symbolicName(), Class::forName, "greet 2");
        assertEquals(List.of(), done.failures());
        assertEquals("v2:b", handler.ask("b", BOUND).toCompletableFuture().get(5, TimeUnit.SECONDS),
                "moved " + done.moved() + " actors; the handler actor still runs the old revision");
    }

    /**
     * An actor busy for longer than begin's wait (1 s here, 10 s in the runtime) makes the swap refused
     * ("did not answer"); the actors that answered are reattached, and the busy one, which sees the
     * detach only after the refusal, keeps running: the closed swap no longer takes it.
     */
    @Test
    void anActorThatAnswersTheDetachAfterTheRefusalIsNotStranded() throws Exception {
        PluginFactory v1 = revision("v1", false);
        ActorRef slow = v1.handlerActor("slow", fixture.system);
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch busy = new CountDownLatch(1);
        slow.tell(new CountDownLatch[] {entered, busy});
        assertTrue(entered.await(5, TimeUnit.SECONDS));
        List<String> refused = swaps.begin(v1.symbolicName(), "greet 1", PluginSwapRacesTest.class.getClassLoader(),
                List.of(v1));
        busy.countDown();
        assertEquals(1, refused.size(), refused.toString());
        assertTrue(refused.get(0).contains("did not answer"), refused.get(0));
        assertEquals("v1:after", slow.ask("after", BOUND).toCompletableFuture().get(BOUND.toSeconds() + 2,
                TimeUnit.SECONDS), "the refused swap left the actor detached");
    }
}
