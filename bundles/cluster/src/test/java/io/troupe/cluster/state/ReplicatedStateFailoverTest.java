package io.troupe.cluster.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;

import io.troupe.api.state.StateKey;
import io.troupe.store.MvStateStore;

/** A tenant's states survive the crash of the member that owned its partition (backupCount 1). */
class ReplicatedStateFailoverTest {

    @TempDir
    Path folder;

    @Test
    void statesSurviveTheTerminationOfTheTenantsOwner() throws Exception {
        try (EmbeddedMembers members = new EmbeddedMembers(3).startAll()) {
            String tenant = "acme";
            UUID ownerId = members.member(0).getPartitionService().getPartition(tenant).getOwner().getUuid();
            int owner = -1;
            for (int i = 0; i < 3; i++) {
                if (members.member(i).getCluster().getLocalMember().getUuid().equals(ownerId)) {
                    owner = i;
                }
            }
            HazelcastInstance ownerMember = members.member(owner);
            try (MvStateStore local = MvStateStore.open(folder.resolve("state.mv.db"))) {
                ReplicatedStateStore store = new ReplicatedStateStore(ownerMember, local);
                List<CompletableFuture<Void>> writes = new ArrayList<>();
                for (int i = 0; i < 200; i++) {
                    StateKey key = new StateKey(tenant, "handler:counter.add", "actor-" + i);
                    writes.add(store.write(key, ReplicatedStateStoreTest.bytes("total " + i)).toCompletableFuture());
                }
                CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
                IMap<String, byte[]> map = ownerMember.getMap(ReplicatedStateStore.MAP);
                assertEquals(200, map.localKeySet().stream().filter(k -> k.endsWith("@" + tenant)).count(),
                        "the tenant's owner holds every state of the tenant");

                ownerMember.getLifecycleService().terminate();

                ExecutionException refused = assertThrows(ExecutionException.class, () -> store.write(
                        new StateKey(tenant, "o", "late"), new byte[1]).toCompletableFuture()
                        .get(30, TimeUnit.SECONDS));
                assertInstanceOf(java.io.IOException.class, refused.getCause(),
                        "a write the map refuses fails with an IOException");
            }
            HazelcastInstance survivor = members.member(owner == 0 ? 1 : 0);
            members.awaitSize(2);
            ReplicatedStateStore after = new ReplicatedStateStore(survivor, null);
            for (int i = 0; i < 200; i++) {
                StateKey key = new StateKey(tenant, "handler:counter.add", "actor-" + i);
                assertEquals("total " + i, ReplicatedStateStoreTest.text(after.read(key)), key.toString());
            }
            assertEquals(200, after.list(tenant).size());
        }
    }
}
