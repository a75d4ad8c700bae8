package io.troupe.ops.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.troupe.api.monitor.HandlerStats;
import io.troupe.api.monitor.RuntimeSnapshot;
import io.troupe.api.monitor.ThreadStats;
import io.troupe.api.monitor.WorkerPoolStats;

/**
 * The overview from a real {@link RuntimeSnapshot}: the node, the counts, workers and IO loops with their busy
 * ratios, the logger's queue and drops, swaps and rollbacks.
 *
 * <p><b>Threading:</b> the test thread only.
 */
class OverviewDocumentTest {

    private static final Instant STARTED = Instant.parse("2026-12-02T10:00:00Z");
    private static final Instant TAKEN = Instant.parse("2026-12-02T11:01:05Z");

    static RuntimeSnapshot snapshot() {
        WorkerPoolStats workers = new WorkerPoolStats(3, 2, 8, 1, 0, 4, 0.25, List.of(
                new ThreadStats("troupe-worker-1", 0.5, 12, false),
                new ThreadStats("troupe-worker-2", 0.0, 0, false),
                new ThreadStats("troupe-worker-3", 0.25, 3000, true)));
        List<ThreadStats> loops = List.of(new ThreadStats("troupe-acceptor", 0.0, 0, false),
                new ThreadStats("troupe-io-1", 0.125, 0, false));
        return new RuntimeSnapshot(TAKEN, workers, loops, 0.0625, 42, 17, 5, 2, 1,
                List.of(new HandlerStats("counter.add", 2, 3, 900, 1)), List.of(), List.of(), 3, 1, 65536);
    }

    @Test
    void theOverviewSaysWhichNodeAndHowItRuns() {
        NodeIdentity node = new NodeIdentity("box", 4242, "127.0.0.1:7878", null, "0.1.0", STARTED);

        JsonNode overview = JsonTrees.read(new OverviewDocument(node, snapshot()));

        assertEquals("box", overview.at("/node/host").asText());
        assertEquals(4242, overview.at("/node/pid").asLong());
        assertEquals("127.0.0.1:7878", overview.at("/node/server").asText());
        assertTrue(overview.at("/node/cluster").isNull());
        assertEquals(3665, overview.get("uptimeSeconds").asLong());
        assertEquals(TAKEN.toString(), overview.get("takenAt").asText());
        assertEquals(42, overview.get("actors").asInt());
        assertEquals(17, overview.get("mailboxBacklog").asLong());
        assertEquals(5, overview.get("deadLetters").asLong());
        assertEquals(1, overview.get("stalls").asLong());
        assertEquals(65536, overview.at("/logger/queueBytes").asLong());
        assertEquals(2, overview.at("/logger/recordsDropped").asLong());
        assertEquals(3, overview.at("/plugins/swaps").asLong());
        assertEquals(1, overview.at("/plugins/rollbacks").asLong());
        assertEquals("counter.add", overview.at("/handlers/0/name").asText());
        assertEquals(900, overview.at("/handlers/0/processed").asLong());
    }

    @Test
    void workersAndIoLoopsCarryEachThreadsBusyRatioAndStall() {
        NodeIdentity node = new NodeIdentity("box", 1, null, "10.0.0.5:5701", "0.1.0", STARTED);

        JsonNode overview = JsonTrees.read(new OverviewDocument(node, snapshot()));

        JsonNode workers = overview.get("workers");
        assertEquals(3, workers.get("current").asInt());
        assertEquals(2, workers.get("min").asInt());
        assertEquals(8, workers.get("max").asInt());
        assertEquals(4, workers.get("queued").asInt());
        assertEquals(0.25, workers.get("busyRatio").asDouble());
        assertEquals(3, workers.get("threads").size());
        assertTrue(workers.at("/threads/2/stalled").asBoolean());
        assertEquals(3000, workers.at("/threads/2/busyMillis").asLong());
        assertEquals(0.0625, overview.at("/ioLoops/busyRatio").asDouble());
        assertEquals("troupe-io-1", overview.at("/ioLoops/threads/1/name").asText());
        assertTrue(overview.at("/node/server").isNull());
        assertEquals("10.0.0.5:5701", overview.at("/node/cluster").asText());
    }
}
