package io.troupe.ops.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.troupe.api.ActorInfo;
import io.troupe.api.MailboxOverflow;

/**
 * The actors view: tree order with depths, the plugin each actor's code comes from (its own origin's, else
 * its parent's), the tenant filter and the limit.
 *
 * <p><b>Threading:</b> the test thread only.
 */
class ActorsDocumentTest {

    private static final PluginCode WORDCOUNT = new PluginCode(15, "io.troupe.sample.wordcount", "1.0.0", 1,
            "wordcount.jar");
    private static final PluginCode CHUNK = new PluginCode(15, "io.troupe.sample.wordcount", "1.0.0", 1,
            "wordcount.jar");
    private static final PluginCode COUNTER = new PluginCode(14, "io.troupe.sample.counter", "2.0.0", 2,
            "counter.jar");

    /** Given in no tree order: a child before its parent, siblings out of order, an orphan. */
    private static List<ActorInfo> actors() {
        return List.of(
                new ActorInfo(9, 7, "chunk-1", "demo", "factory:wordcount.chunk", 4, 12, 1, 64, MailboxOverflow.REJECT,
                        3, 0),
                new ActorInfo(7, 0, "wordcount", "demo", "handler:wordcount", 0, 1, 0),
                new ActorInfo(12, 7, "audit", "demo", "io.example.Audit", 0, 5, 0),
                new ActorInfo(8, 7, "chunk-0", "demo", "factory:wordcount.chunk", 0, 3, 0),
                new ActorInfo(3, 0, "counter.add", "acme", "handler:counter.add", 2, 40, 0),
                new ActorInfo(30, 29, "orphan", "acme", "io.example.Orphan", 0, 0, 0));
    }

    private static Map<String, PluginCode> origins() {
        return Map.of("handler:wordcount", WORDCOUNT, "factory:wordcount.chunk", CHUNK,
                "handler:counter.add", COUNTER);
    }

    @Test
    void parentsComeBeforeTheirChildrenSiblingsByIdWithDepthsAndOrphansAsRoots() {
        JsonNode view = JsonTrees.read(new ActorsDocument(actors(), origins(), null, 100));

        List<String> order = new ArrayList<>();
        for (JsonNode actor : view.get("actors")) {
            order.add(actor.get("id").asLong() + "@" + actor.get("depth").asInt());
        }
        assertEquals(List.of("3@0", "7@0", "8@1", "9@1", "12@1", "30@0"), order);
        assertEquals(6, view.get("total").asInt());
        assertEquals(6, view.get("shown").asInt());
        assertFalse(view.get("truncated").asBoolean());
    }

    @Test
    void eachActorCarriesItsCountersAndThePluginItsOriginComesFrom() {
        JsonNode view = JsonTrees.read(new ActorsDocument(actors(), origins(), null, 100));

        JsonNode chunk = find(view, 9);
        assertEquals("chunk-1", chunk.get("name").asText());
        assertEquals("demo", chunk.get("tenant").asText());
        assertEquals("factory:wordcount.chunk", chunk.get("origin").asText());
        assertEquals(7, chunk.get("parent").asLong());
        assertEquals(4, chunk.get("mailboxDepth").asInt());
        assertEquals(64, chunk.get("mailboxCapacity").asInt());
        assertEquals("REJECT", chunk.get("overflow").asText());
        assertEquals(12, chunk.get("processed").asLong());
        assertEquals(1, chunk.get("failures").asLong());
        assertEquals(3, chunk.get("rejected").asLong());
        assertEquals("io.troupe.sample.wordcount", chunk.at("/plugin/symbolicName").asText());
        JsonNode counter = find(view, 3).get("plugin");
        assertEquals(14, counter.get("bundleId").asLong());
        assertEquals("2.0.0", counter.get("version").asText());
        assertEquals(2, counter.get("revision").asInt());
        assertEquals("counter.jar", counter.get("file").asText());
    }

    @Test
    void aChildSpawnedByClassRunsItsParentsPluginAndAnActorOfNoPluginHasNone() {
        JsonNode view = JsonTrees.read(new ActorsDocument(actors(), origins(), null, 100));

        assertEquals("wordcount.jar", find(view, 12).at("/plugin/file").asText());
        assertTrue(find(view, 30).get("plugin").isNull());
    }

    @Test
    void aTenantFilterKeepsThatTenantsActorsAndTheLimitSaysHowManyWereLeftOut() {
        JsonNode demo = JsonTrees.read(new ActorsDocument(actors(), origins(), "demo", 2));

        assertEquals(4, demo.get("total").asInt());
        assertEquals(2, demo.get("shown").asInt());
        assertTrue(demo.get("truncated").asBoolean());
        assertEquals(List.of(7L, 8L), List.of(demo.get("actors").get(0).get("id").asLong(),
                demo.get("actors").get(1).get("id").asLong()));
    }

    @Test
    void aNegativeLimitIsRefused() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> new ActorsDocument(actors(), origins(), null, -1));

        assertEquals("limit must not be negative: -1", refused.getMessage());
    }

    @Test
    void tenThousandActorsInADeepChainAreWalkedWithoutRecursion() {
        List<ActorInfo> chain = new ArrayList<>();
        for (int id = 1; id <= 10_000; id++) {
            chain.add(new ActorInfo(id, id - 1, "a" + id, "demo", "x", 0, 0, 0));
        }

        JsonNode view = JsonTrees.read(new ActorsDocument(chain, Map.of(), null, ActorsDocument.DEFAULT_LIMIT));

        assertEquals(10_000, view.get("total").asInt());
        assertEquals(ActorsDocument.DEFAULT_LIMIT, view.get("actors").size());
        assertEquals(4999, view.get("actors").get(4999).get("depth").asInt());
    }

    private static JsonNode find(JsonNode view, long id) {
        for (JsonNode actor : view.get("actors")) {
            if (actor.get("id").asLong() == id) {
                return actor;
            }
        }
        throw new AssertionError("no actor " + id + " in " + view);
    }
}
