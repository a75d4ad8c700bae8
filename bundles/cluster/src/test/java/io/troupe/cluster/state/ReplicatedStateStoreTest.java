package io.troupe.cluster.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.partition.PartitionService;

import io.troupe.api.state.StateKey;
import io.troupe.api.state.StoredState;
import io.troupe.store.MvStateStore;

/** The replicated store on two real members, each with a real MvStateStore as its local store. */
class ReplicatedStateStoreTest {

    private static final AtomicInteger TENANTS = new AtomicInteger();
    private static EmbeddedMembers members;

    @TempDir
    Path folder;
    private MvStateStore localA;
    private MvStateStore localB;
    private ReplicatedStateStore storeA;
    private ReplicatedStateStore storeB;
    /** A tenant of this test only, since the members are shared. */
    private String tenant;

    @BeforeAll
    static void startMembers() {
        members = new EmbeddedMembers(2).startAll();
    }

    @AfterAll
    static void stopMembers() {
        members.close();
    }

    @BeforeEach
    void openStores() throws Exception {
        localA = MvStateStore.open(folder.resolve("a/state.mv.db"));
        localB = MvStateStore.open(folder.resolve("b/state.mv.db"));
        storeA = new ReplicatedStateStore(members.member(0), localA);
        storeB = new ReplicatedStateStore(members.member(1), localB);
        tenant = "tenant-" + TENANTS.incrementAndGet();
    }

    @AfterEach
    void closeStores() {
        storeA.close();
        storeB.close();
        localA.close();
        localB.close();
    }

    @Test
    void everyKeyOfATenantFallsInThePartitionOfTheTenantId() {
        PartitionService partitions = members.member(0).getPartitionService();
        for (String id : List.of("acme", "t.1", "x_y-z", "a")) {
            int expected = partitions.getPartition(id).getPartitionId();
            for (String origin : List.of("handler:counter.add", "factory:a@b", "x%40y", "/", "@", "%")) {
                for (String path : List.of("handler:counter.add@acme", "a/b/c", "room@lobby/x", "%2F", "p")) {
                    StateKey key = new StateKey(id, origin, path);
                    String mapKey = StateMapKeys.encode(key);
                    assertEquals(expected, partitions.getPartition(mapKey).getPartitionId(), mapKey);
                    assertEquals(key, StateMapKeys.decode(mapKey), mapKey);
                }
            }
        }
    }

    @Test
    void theTenantsOwnerHoldsItsStates() throws Exception {
        StateKey key = new StateKey(tenant, "factory:a@b", "x/y@z");
        storeA.write(key, bytes("s")).toCompletableFuture().get(10, TimeUnit.SECONDS);
        var owner = members.member(0).getPartitionService().getPartition(tenant).getOwner();
        HazelcastInstance holder = members.member(0).getCluster().getLocalMember().equals(owner)
                ? members.member(0) : members.member(1);
        IMap<String, byte[]> map = holder.getMap(ReplicatedStateStore.MAP);
        assertTrue(map.localKeySet().contains(StateMapKeys.encode(key)));
    }

    @Test
    void aMemberThatPartitionsKeysWhollyIsRefused() {
        try (EmbeddedMembers alone = new EmbeddedMembers(1, EmbeddedMembers.Partitioning.DEFAULT)) {
            HazelcastInstance member = alone.start(0);
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                    () -> new ReplicatedStateStore(member, null));
            assertTrue(refused.getMessage().contains(ReplicatedStateStore.PARTITIONING_PROPERTY), refused.getMessage());
        }
    }

    /**
     * Why the strategy must be member-wide: Hazelcast 5.7.0's setAsync ignores a strategy given to the map
     * alone, while set and get use it, so a tenant's states written with setAsync would be scattered.
     */
    @Test
    void aStrategyOfTheMapAloneIsRefusedSinceSetAsyncIgnoresIt() {
        try (EmbeddedMembers two = new EmbeddedMembers(2, EmbeddedMembers.Partitioning.MAP_ONLY).startAll()) {
            IMap<String, byte[]> map = two.member(0).getMap(ReplicatedStateStore.MAP);
            for (int i = 0; i < 40; i++) {
                map.setAsync("o/async-" + i + "@acme", new byte[1]).toCompletableFuture().join();
                map.set("o/sync-" + i + "@acme", new byte[1]);
            }
            var owner = two.member(0).getPartitionService().getPartition("acme").getOwner();
            HazelcastInstance holder = two.member(0).getCluster().getLocalMember().equals(owner)
                    ? two.member(0) : two.member(1);
            var held = holder.<String, byte[]>getMap(ReplicatedStateStore.MAP).localKeySet();
            assertEquals(40, held.stream().filter(k -> k.startsWith("o/sync-")).count(), "set follows the strategy");
            assertTrue(held.stream().filter(k -> k.startsWith("o/async-")).count() < 40,
                    "setAsync ignores it (if this fails, Hazelcast fixed it and the map's own strategy would do)");
            assertThrows(IllegalStateException.class, () -> new ReplicatedStateStore(two.member(0), null));
        }
    }

    @Test
    void aWriteIsReadOnAnotherNodeAndReachesTheLocalStore() throws Exception {
        StateKey key = new StateKey(tenant, "handler:counter.add", "handler:counter.add@" + tenant);
        storeA.write(key, bytes("one")).toCompletableFuture().get(10, TimeUnit.SECONDS);
        storeA.write(key, bytes("two")).toCompletableFuture().get(10, TimeUnit.SECONDS);

        assertEquals("two", text(storeB.read(key)));
        assertEquals("two", text(localA.read(key)), "written through to the writer's local store");
        assertTrue(localB.read(key).isEmpty(), "the other node's local store is not written");
        List<StoredState> listed = storeB.list(tenant);
        assertEquals(1, listed.size());
        assertEquals(key, listed.get(0).key());
        assertEquals(3, listed.get(0).bytes());
        assertEquals(2, storeA.stats().writes());
    }

    @Test
    void theCallersArrayMayBeReusedOnceWriteReturns() throws Exception {
        StateKey key = new StateKey(tenant, "o", "p");
        byte[] snapshot = bytes("kept");
        var stage = storeA.write(key, snapshot).toCompletableFuture();
        snapshot[0] = 'X';
        stage.get(10, TimeUnit.SECONDS);
        assertEquals("kept", text(storeB.read(key)));
        assertEquals("kept", text(localA.read(key)));
    }

    @Test
    void actorsOfNoTenantStayInTheLocalStore() throws Exception {
        StateKey key = new StateKey("", "handler:clock.tick", "handler:clock.tick");
        storeA.write(key, bytes("local")).toCompletableFuture().get(10, TimeUnit.SECONDS);

        assertEquals("local", text(storeA.read(key)));
        assertEquals("local", text(localA.read(key)));
        assertTrue(storeB.read(key).isEmpty(), "another node does not see a node-local state");
        IMap<String, byte[]> map = members.member(0).getMap(ReplicatedStateStore.MAP);
        assertFalse(map.containsKey(StateMapKeys.encode(key)), "tenant '' is never replicated");
        assertEquals(1, storeA.list("").size());
    }

    @Test
    void aReadFallsBackToTheLocalStoreOnlyWhenTheMapHasNothing() throws Exception {
        StateKey key = new StateKey(tenant, "o", "only-local");
        localB.write(key, bytes("from disk")).toCompletableFuture().get(10, TimeUnit.SECONDS);
        assertEquals("from disk", text(storeB.read(key)));

        storeA.write(key, bytes("replicated")).toCompletableFuture().get(10, TimeUnit.SECONDS);
        assertEquals("replicated", text(storeB.read(key)), "the map wins over the local copy");
    }

    @Test
    void aDeletedStateDoesNotComeBackFromAnotherNodesLocalCopy() throws Exception {
        StateKey key = new StateKey(tenant, "o", "deleted");
        storeA.write(key, bytes("old")).toCompletableFuture().get(10, TimeUnit.SECONDS);
        localB.write(key, bytes("stale")).toCompletableFuture().get(10, TimeUnit.SECONDS);
        storeB.delete(key).toCompletableFuture().get(10, TimeUnit.SECONDS);

        assertTrue(storeA.read(key).isEmpty());
        assertTrue(storeB.read(key).isEmpty());
        assertTrue(localB.read(key).isEmpty(), "deleted from the deleting node's local store");
        assertTrue(storeA.list(tenant).isEmpty(), "tombstones are not listed");
    }

    @Test
    void listShowsOnlyTheTenantEvenWhenAnotherSharesItsPartition() throws Exception {
        PartitionService partitions = members.member(0).getPartitionService();
        int partition = partitions.getPartition(tenant).getPartitionId();
        String neighbour = null;
        for (int i = 0; neighbour == null; i++) {
            String candidate = "neighbour-" + i;
            if (partitions.getPartition(candidate).getPartitionId() == partition) {
                neighbour = candidate;
            }
        }
        storeA.write(new StateKey(tenant, "b", "2"), bytes("x")).toCompletableFuture().get(10, TimeUnit.SECONDS);
        storeA.write(new StateKey(tenant, "a", "1@x/y"), bytes("y")).toCompletableFuture().get(10, TimeUnit.SECONDS);
        storeA.write(new StateKey(neighbour, "a", "1"), bytes("z")).toCompletableFuture().get(10, TimeUnit.SECONDS);

        List<StoredState> listed = storeB.list(tenant);
        assertEquals(List.of(new StateKey(tenant, "a", "1@x/y"), new StateKey(tenant, "b", "2")),
                listed.stream().map(StoredState::key).toList());
        assertEquals(1, storeB.list(neighbour).size());
    }

    @Test
    void purgeRemovesTheTenantFromTheMapAndTheLocalStore() throws Exception {
        for (int i = 0; i < 5; i++) {
            storeA.write(new StateKey(tenant, "o", "p" + i), bytes("s" + i)).toCompletableFuture()
                    .get(10, TimeUnit.SECONDS);
        }
        StateKey other = new StateKey(tenant + "-other", "o", "p");
        storeA.write(other, bytes("kept")).toCompletableFuture().get(10, TimeUnit.SECONDS);

        assertEquals(5, storeA.purge(tenant));
        assertTrue(storeB.list(tenant).isEmpty());
        assertTrue(localA.list(tenant).isEmpty());
        assertTrue(storeB.read(new StateKey(tenant, "o", "p0")).isEmpty());
        assertEquals("kept", text(storeB.read(other)));
    }

    @Test
    void seedingKeepsTheNewestCopyOfEachKeyWhateverTheOrder() throws Exception {
        StateKey first = new StateKey(tenant, "o", "first");
        StateKey second = new StateKey(tenant, "o", "second");
        // node A wrote "first" last; node B wrote "second" last
        localB.write(first, bytes("b-old")).toCompletableFuture().get(10, TimeUnit.SECONDS);
        localA.write(second, bytes("a-old")).toCompletableFuture().get(10, TimeUnit.SECONDS);
        awaitNextMillisecond(localA, localB, tenant);
        localA.write(first, bytes("a-new")).toCompletableFuture().get(10, TimeUnit.SECONDS);
        localB.write(second, bytes("b-new")).toCompletableFuture().get(10, TimeUnit.SECONDS);

        assertEquals(2, storeA.seedFrom(localA, List.of(tenant, "")));
        assertEquals(1, storeB.seedFrom(localB, List.of(tenant)), "only the key B has newer");
        assertEquals("a-new", text(storeB.read(first)));
        assertEquals("b-new", text(storeA.read(second)));
        assertEquals(0, storeA.seedFrom(localA, List.of(tenant)), "seeding again changes nothing");
        assertEquals("b-new", text(storeA.read(second)));
    }

    @Test
    void seedingDoesNotBringBackAStateDeletedLater() throws Exception {
        StateKey key = new StateKey(tenant, "o", "gone");
        localB.write(key, bytes("stale")).toCompletableFuture().get(10, TimeUnit.SECONDS);
        awaitNextMillisecond(localB, localB, tenant);
        storeA.delete(key).toCompletableFuture().get(10, TimeUnit.SECONDS);

        assertEquals(0, storeB.seedFrom(localB, List.of(tenant)));
        assertTrue(storeB.read(key).isEmpty());
    }

    @Test
    void withoutALocalStoreTheStatesOfNoTenantCannotBeKept() {
        ReplicatedStateStore bare = new ReplicatedStateStore(members.member(0), null);
        ExecutionException refused = assertThrows(ExecutionException.class, () -> bare.write(
                new StateKey("", "o", "p"), bytes("x")).toCompletableFuture().get(10, TimeUnit.SECONDS));
        assertInstanceOf(java.io.IOException.class, refused.getCause());
        assertTrue(refused.getCause().getMessage().contains("no local state store"), refused.getCause().getMessage());
    }

    @Test
    void aLocalStoreThatRefusesTheWriteThroughDoesNotFailTheReplicatedWrite() throws Exception {
        StateKey key = new StateKey(tenant, "o", "p");
        localA.close();
        storeA.write(key, bytes("replicated")).toCompletableFuture().get(10, TimeUnit.SECONDS);
        assertEquals("replicated", text(storeB.read(key)));
        assertEquals(1, storeA.localFailures());
    }

    @Test
    void aClosedStoreRefusesWrites() throws Exception {
        storeA.close();
        ExecutionException refused = assertThrows(ExecutionException.class,
                () -> storeA.write(new StateKey(tenant, "o", "p"), bytes("x")).toCompletableFuture().get(10,
                        TimeUnit.SECONDS));
        assertInstanceOf(IllegalStateException.class, refused.getCause());
    }

    @Test
    void statsCountTheWritesAndTheLatency() throws Exception {
        for (int i = 0; i < 20; i++) {
            storeA.write(new StateKey(tenant, "o", "p" + (i % 3)), new byte[100]).toCompletableFuture()
                    .get(10, TimeUnit.SECONDS);
        }
        var stats = storeA.stats();
        assertEquals(20, stats.writes());
        assertEquals(2000, stats.bytesWritten());
        assertTrue(stats.writeNanosP99() > 0);
        assertTrue(stats.syncs() > 0, "the local store's syncs");
        long owned = storeA.stats().storedStates() + storeB.stats().storedStates();
        assertNotEquals(0, owned);
    }

    /** Waits until the clock has moved past every stamp the local stores gave {@code tenant} so far. */
    private static void awaitNextMillisecond(MvStateStore one, MvStateStore two, String tenant) throws Exception {
        long newest = 0;
        for (MvStateStore store : List.of(one, two)) {
            for (StoredState stored : store.list(tenant)) {
                newest = Math.max(newest, stored.writtenAt().toEpochMilli());
            }
        }
        long last = newest;
        EmbeddedMembers.await(Duration.ofSeconds(5), () -> System.currentTimeMillis() > last, "a later millisecond");
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static String text(Optional<byte[]> bytes) {
        return bytes.map(b -> new String(b, StandardCharsets.UTF_8)).orElse(null);
    }
}
