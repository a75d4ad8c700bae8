package io.troupe.host.actor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import io.troupe.api.Actor;
import io.troupe.api.ActorContext;
import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.api.ErrorCode;
import io.troupe.api.TroupeException;

class HotSwapTest {

    private final TestRuntime runtime = new TestRuntime();
    private final List<String> log = new ArrayList<>();

    /** A counter of one "revision": it tags its replies and logs its lifecycle. */
    private final class Counter implements Actor {
        private final String revision;
        private final boolean failImport;
        private long total;

        Counter(String revision, boolean failImport) {
            this.revision = revision;
            this.failImport = failImport;
        }

        @Override
        public void receive(ActorContext ctx, Object message) {
            if ("get".equals(message)) {
                ctx.reply(revision + ":" + total);
            } else {
                total += (Integer) message;
            }
        }

        @Override
        public Object exportState(ActorContext ctx) {
            log.add(revision + " exports " + total);
            return total;
        }

        @Override
        public void importState(ActorContext ctx, Object state) {
            if (failImport) {
                throw new IllegalArgumentException(revision + " cannot read " + state);
            }
            total = (Long) state;
            log.add(revision + " imports " + total);
        }

        @Override
        public void postStop(ActorContext ctx) {
            log.add(revision + " postStop");
        }
    }

    private FactorySource revision(String name, boolean failImport) {
        return FactorySource.of(() -> new Counter(name, failImport), "handler:counter");
    }

    private Object ask(ActorRef actor, Object message) {
        CompletableFuture<Object> reply = actor.ask(message, Duration.ofSeconds(5)).toCompletableFuture();
        runtime.settle();
        assertTrue(reply.isDone(), "no reply");
        return reply.join();
    }

    @Test
    void aSwappedActorKeepsItsStateIdAndQueuedMessagesInOrder() throws Exception {
        ActorRef counter = runtime.system.spawn(revision("v1", false), ActorOptions.defaults(), "t");
        counter.tell(5);
        runtime.settle();

        SwapBarrier detached = runtime.system.detach(List.of(counter));
        runtime.settle();
        assertEquals(List.of(), detached.await(Duration.ZERO));
        // while detached, messages queue and asks wait
        counter.tell(1);
        counter.tell(2);
        CompletableFuture<Object> inFlight = counter.ask("get", Duration.ofSeconds(30)).toCompletableFuture();
        runtime.settle();
        assertFalse(inFlight.isDone());

        SwapBarrier prepared = runtime.system.prepare(Map.of(counter, revision("v2", false)));
        runtime.settle();
        assertEquals(List.of(), prepared.await(Duration.ZERO));
        assertFalse(inFlight.isDone(), "nothing is processed before the commit");
        runtime.system.commit(List.of(counter));
        runtime.settle();

        assertEquals("v2:8", inFlight.join(), "the queued adds ran on the new instance, in order, then the ask");
        assertEquals(List.of("v1 exports 5", "v2 imports 5"), log, "the old instance is not stopped, only replaced");
        assertEquals(1, runtime.system.size());
        assertTrue(runtime.system.lookup(counter.id()).isPresent());
    }

    @Test
    void aFailedImportIsAbortedAndTheOldRevisionTakesOverWithTheOriginalState() throws Exception {
        ActorRef counter = runtime.system.spawn(revision("v1", false), ActorOptions.defaults(), "t");
        counter.tell(7);
        runtime.settle();
        runtime.system.detach(List.of(counter));
        runtime.settle();

        SwapBarrier broken = runtime.system.prepare(Map.of(counter, revision("v2", true)));
        runtime.settle();
        List<String> failures = broken.await(Duration.ZERO);
        assertEquals(1, failures.size());
        assertTrue(failures.get(0).contains("v2 cannot read 7"), failures.get(0));
        runtime.system.abort(List.of(counter));
        counter.tell(1);
        runtime.settle();

        SwapBarrier rollback = runtime.system.prepare(Map.of(counter, revision("v1-again", false)));
        runtime.settle();
        assertEquals(List.of(), rollback.await(Duration.ZERO));
        runtime.system.commit(List.of(counter));
        assertEquals("v1-again:8", ask(counter, "get"));
    }

    @Test
    void aDetachedActorThatIsStoppedFailsItsQueuedRequestsWithTheReason() throws Exception {
        ActorRef counter = runtime.system.spawn(revision("v1", false), ActorOptions.defaults(), "t");
        runtime.system.detach(List.of(counter));
        runtime.settle();
        CompletableFuture<Object> queued = counter.ask("get", Duration.ofSeconds(30)).toCompletableFuture();
        runtime.system.stop(counter, new StopReason("code went away", ErrorCode.NO_HANDLER, null));
        runtime.settle();
        assertEquals(ErrorCode.NO_HANDLER, MessagingTest.causeOf(queued, TroupeException.class).code());
        assertFalse(log.contains("v1 postStop"), "the exported instance was already gone");
    }

    @Test
    void stateHoldingAPluginClassIsRefused() {
        record PluginState(long total) { }
        Object portable = PortableState.require(Map.of("total", 3L, "list", List.of(1, 2)),
                HotSwapTest.class.getClassLoader());
        assertEquals(Map.of("total", 3L, "list", List.of(1, 2)), portable);
        IllegalArgumentException refused = org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class,
                () -> PortableState.require(Map.of("nested", List.of(new PluginState(1))),
                        HotSwapTest.class.getClassLoader()));
        assertTrue(refused.getMessage().contains("PluginState"), refused.getMessage());
    }

    @Test
    void anActorSpawnedDuringTheSwapWaitsForTheNextRevision() throws Exception {
        ActorRef late = runtime.system.spawnDetached(revision("v1", false), ActorOptions.defaults(), "t");
        late.tell(4);
        runtime.settle();
        runtime.system.prepare(Map.of(late, revision("v2", false)));
        runtime.settle();
        runtime.system.commit(List.of(late));
        assertEquals("v2:4", ask(late, "get"));
    }
}
