package io.troupe.cluster.state;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;

/**
 * Writes of one key issued without waiting for each other, as a durable actor's turns issue them, land in
 * the order they were asked for, even while members join and leave and partitions migrate under them.
 */
class OrderedMapWritesTest {

    @Test
    void pipelinedWritesOfAKeyEndWithTheLastOneWhilePartitionsMigrate() throws Exception {
        try (EmbeddedMembers members = new EmbeddedMembers(3)) {
            HazelcastInstance first = members.start(0);
            members.start(1);
            IMap<String, byte[]> map = first.getMap(ReplicatedStateStore.MAP);
            OrderedMapWrites writes = new OrderedMapWrites(map);
            List<String> keys = List.of("counter/a@t1", "counter/a@t2", "counter/a@t3", "counter/a@t4");
            long[] last = new long[keys.size()];
            List<CompletableFuture<Void>> stages = new ArrayList<>();
            CompletableFuture<HazelcastInstance> joined = CompletableFuture.supplyAsync(() -> members.start(2));
            long value = 0;
            while (!joined.isDone() || value < 4_000) {
                value++;
                int k = (int) (value % keys.size());
                last[k] = value;
                stages.add(writes.set(keys.get(k), ByteBuffer.allocate(8).putLong(value).array())
                        .toCompletableFuture());
                if (stages.size() % 256 == 0) {
                    stages.get(stages.size() - 256).get(30, TimeUnit.SECONDS); // a bounded window in flight
                }
            }
            joined.get(60, TimeUnit.SECONDS);
            members.member(1).shutdown(); // partitions migrate again, with writes in flight
            for (int i = 0; i < 2_000; i++) {
                value++;
                int k = (int) (value % keys.size());
                last[k] = value;
                stages.add(writes.set(keys.get(k), ByteBuffer.allocate(8).putLong(value).array())
                        .toCompletableFuture());
            }
            CompletableFuture.allOf(stages.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);

            for (int k = 0; k < keys.size(); k++) {
                assertEquals(last[k], ByteBuffer.wrap(map.get(keys.get(k))).getLong(), keys.get(k));
            }
            assertEquals(0, writes.inFlight(), "no key keeps a write in flight once every stage completed");
        }
    }
}
