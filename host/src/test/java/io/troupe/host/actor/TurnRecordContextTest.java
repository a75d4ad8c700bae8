package io.troupe.host.actor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.host.dispatch.WorkerPool;

/**
 * The log entries of a turn, looked up on real worker threads: the actor and tenant of the turn
 * the calling worker runs, nothing on other threads or for another system's actors.
 *
 * <p><b>Threading:</b> the test thread asks; the actors run on a real {@link WorkerPool}.
 */
class TurnRecordContextTest {

    private static final Duration ASK = Duration.ofSeconds(10);

    private final WorkerPool workers = new WorkerPool(2, "record-context-test", getClass().getClassLoader());
    private final ActorSystem system = new ActorSystem(workers, new ManualScheduler(), name -> Optional.empty(),
            ActorSystem.DEFAULT_THROUGHPUT);
    private final ActorSystem other = new ActorSystem(workers, new ManualScheduler(), name -> Optional.empty(),
            ActorSystem.DEFAULT_THROUGHPUT);
    private final TurnRecordContext context = new TurnRecordContext(system);

    @AfterEach
    void stop() throws InterruptedException {
        system.shutdown(ASK);
        other.shutdown(ASK);
        workers.shutdown(ASK.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Test
    void aTurnOfATenantsActorNamesTheActorAndTheTenant() throws Exception {
        ActorRef actor = system.spawn(FactorySource.of(() -> (ctx, message) -> ctx.reply(context.entries()),
                "handler:orders"), ActorOptions.defaults().withName("orders"), "acme");

        Object entries = ask(system, actor);

        assertEquals(Map.of("actor", "orders#" + actor.id(), "tenant", "acme"), entries);
    }

    @Test
    void aTurnOfASystemActorNamesOnlyTheActor() throws Exception {
        ActorRef actor = system.spawn(() -> (ctx, message) -> ctx.reply(context.entries()), ActorOptions.defaults());

        Object entries = ask(system, actor);

        assertEquals(Map.of("actor", actor.name() + "#" + actor.id()), entries);
    }

    @Test
    void nothingOutsideATurnOfThisSystem() throws Exception {
        assertNull(context.entries(), "the test thread runs no turn");
        ActorRef foreign = other.spawn(() -> (ctx, message) -> ctx.reply(Optional.ofNullable(context.entries())),
                ActorOptions.defaults());

        assertEquals(Optional.empty(), ask(other, foreign), "another system's actor on the same workers");
    }

    private static Object ask(ActorSystem system, ActorRef actor) throws Exception {
        return system.ask(actor, "entries?", ASK).toCompletableFuture().get(ASK.toSeconds(), TimeUnit.SECONDS);
    }
}
