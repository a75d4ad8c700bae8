package io.troupe.host.actor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.api.Terminated;

/** Death-watch and termination futures, on a deterministic runtime. */
class DeathWatchTest {

    private final TestRuntime runtime = new TestRuntime();
    private final List<Object> watcherGot = new ArrayList<>();

    /** A watcher that watches or unwatches the actor it is told to, and records everything else. */
    private ActorRef watcher() {
        return runtime.system.spawn(() -> (ctx, message) -> {
            if (message instanceof Watch watch) {
                ctx.watch(watch.target());
            } else if (message instanceof Unwatch unwatch) {
                ctx.unwatch(unwatch.target());
            } else {
                watcherGot.add(message);
            }
        }, ActorOptions.defaults().withName("watcher"));
    }

    private record Watch(ActorRef target) {
    }

    private record Unwatch(ActorRef target) {
    }

    private ActorRef peer(String name) {
        return runtime.system.spawn(() -> (ctx, message) -> {
            if ("say".equals(message)) {
                ctx.sender().tell("last words", ctx.self());
                ctx.stop();
            }
        }, ActorOptions.defaults().withName(name));
    }

    @Test
    void aWatcherHearsOfAPeersDeathOnceAndAfterItsLastMessages() {
        ActorRef watcher = watcher();
        ActorRef peer = peer("peer");
        watcher.tell(new Watch(peer));
        watcher.tell(new Watch(peer)); // twice is once
        runtime.settle();
        peer.tell("say", watcher);
        runtime.settle();
        assertEquals(List.of("last words", new Terminated(peer)), watcherGot);
    }

    @Test
    void watchingAnActorAlreadyDeadDeliversTerminatedAtOnce() {
        ActorRef watcher = watcher();
        ActorRef peer = peer("short-lived");
        runtime.system.stop(peer, StopReason.NORMAL);
        runtime.settle();
        assertTrue(peer.isStopped());
        watcher.tell(new Watch(peer));
        runtime.settle();
        assertEquals(List.of(new Terminated(peer)), watcherGot);
    }

    @Test
    void afterUnwatchNoTerminatedArrivesEvenOneAlreadyQueued() {
        ActorRef watcher = watcher();
        ActorRef peer = peer("peer");
        watcher.tell(new Watch(peer));
        runtime.settle();
        // the peer dies, and its notice is queued behind the unwatch: the unwatch must win
        watcher.tell(new Unwatch(peer));
        runtime.system.stop(peer, StopReason.NORMAL);
        runtime.settle();
        assertTrue(peer.isStopped());
        assertEquals(List.of(), watcherGot);
    }

    @Test
    void aDeadWatcherIsForgottenByItsTarget() {
        ActorRef watcher = watcher();
        ActorRef peer = peer("long-lived");
        watcher.tell(new Watch(peer));
        runtime.settle();
        ActorCell peerCell = ((LocalActorRef) peer).cell();
        assertEquals(1, peerCell.watcherCount());
        runtime.system.stop(watcher, StopReason.NORMAL);
        runtime.settle();
        assertEquals(0, peerCell.watcherCount(), "the stopped watcher left the peer's watcher set");
        runtime.system.stop(peer, StopReason.NORMAL);
        runtime.settle();
        assertTrue(runtime.deadLetters.isEmpty(), "nothing was sent to the dead watcher: " + runtime.deadLetters);
    }

    @Test
    void whenTerminatedCompletesAfterPostStopAndTheSystemsAfterEveryActor() throws InterruptedException {
        List<String> events = new ArrayList<>();
        ActorRef actor = runtime.system.spawn(() -> new io.troupe.api.Actor() {
            @Override
            public void receive(io.troupe.api.ActorContext ctx, Object message) {
            }

            @Override
            public void postStop(io.troupe.api.ActorContext ctx) {
                events.add("postStop");
            }
        }, ActorOptions.defaults());
        runtime.settle();
        CompletableFuture<Void> stopped = actor.whenTerminated().toCompletableFuture();
        stopped.thenRun(() -> events.add("terminated"));
        assertFalse(stopped.isDone());
        CompletableFuture<Void> system = runtime.system.whenTerminated().toCompletableFuture();
        runtime.system.stop(actor, StopReason.NORMAL);
        runtime.settle();
        assertEquals(List.of("postStop", "terminated"), events);
        assertTrue(actor.whenTerminated().toCompletableFuture().isDone(), "already complete for a dead actor");
        assertFalse(system.isDone());
        assertFalse(runtime.system.shutdown(java.time.Duration.ZERO), "the manual dispatcher has not run the stop yet");
        runtime.settle();
        assertTrue(system.isDone());
    }
}
