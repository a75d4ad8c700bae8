package io.troupe.cluster.state;

import static io.troupe.cluster.state.ReplicatedStateStoreTest.bytes;
import static io.troupe.cluster.state.ReplicatedStateStoreTest.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.troupe.api.state.StateKey;
import io.troupe.store.MvStateStore;

/**
 * After every member stopped, the states come back from the nodes' local stores: each node seeds what it
 * wrote through, and the newest copy of each key wins whichever node has it.
 */
class WholeClusterRestartTest {

    @TempDir
    Path folder;

    @Test
    void theNewestCopyOfEachStateComesBackFromWhicheverNodeWroteIt() throws Exception {
        StateKey moved = new StateKey("acme", "handler:counter.add", "counter");   // served by A, then by B
        StateKey onlyA = new StateKey("acme", "factory:chat.room", "room/lobby");
        StateKey deleted = new StateKey("acme", "o", "deleted-on-b");
        StateKey local = new StateKey("", "handler:clock", "clock");
        Path fileA = folder.resolve("a/state.mv.db");
        Path fileB = folder.resolve("b/state.mv.db");

        try (EmbeddedMembers before = new EmbeddedMembers(2).startAll();
             MvStateStore localA = MvStateStore.open(fileA);
             MvStateStore localB = MvStateStore.open(fileB)) {
            ReplicatedStateStore storeA = new ReplicatedStateStore(before.member(0), localA);
            ReplicatedStateStore storeB = new ReplicatedStateStore(before.member(1), localB);
            storeA.write(moved, bytes("total 1")).toCompletableFuture().get(10, TimeUnit.SECONDS);
            storeA.write(onlyA, bytes("hello")).toCompletableFuture().get(10, TimeUnit.SECONDS);
            storeA.write(deleted, bytes("stale")).toCompletableFuture().get(10, TimeUnit.SECONDS);
            storeA.write(local, bytes("a's clock")).toCompletableFuture().get(10, TimeUnit.SECONDS);
            long written = localA.list("acme").stream().mapToLong(s -> s.writtenAt().toEpochMilli()).max().orElse(0);
            EmbeddedMembers.await(Duration.ofSeconds(5), () -> System.currentTimeMillis() > written, "a later ms");
            storeB.write(moved, bytes("total 2")).toCompletableFuture().get(10, TimeUnit.SECONDS);
            storeB.delete(deleted).toCompletableFuture().get(10, TimeUnit.SECONDS);
            storeA.close();
            storeB.close();
        }

        try (EmbeddedMembers after = new EmbeddedMembers(2).startAll();
             MvStateStore localA = MvStateStore.open(fileA);
             MvStateStore localB = MvStateStore.open(fileB)) {
            ReplicatedStateStore storeA = new ReplicatedStateStore(after.member(0), localA);
            ReplicatedStateStore storeB = new ReplicatedStateStore(after.member(1), localB);
            assertEquals(3, storeA.seedFrom(localA, List.of("acme")), "A's copies, into an empty map");
            assertEquals(1, storeB.seedFrom(localB, List.of("acme")), "B's newer copy of the moved state");

            assertEquals("total 2", text(storeA.read(moved)));
            assertEquals("hello", text(storeB.read(onlyA)));
            assertEquals("a's clock", text(storeA.read(local)));
            assertTrue(storeB.read(local).isEmpty(), "B never had A's node-local state");
            // the deletion made on B was not in any local store: the copy A wrote comes back (documented)
            assertEquals("stale", text(storeB.read(deleted)));
        }
    }
}
