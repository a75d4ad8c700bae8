package io.troupe.ops.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.troupe.client.deploy.DeployStatus;

/**
 * The plugins view and its swap history: bundle events and the host's outcomes become entries, newest first,
 * each outcome once; revisions count updates; the history keeps its last {@value PluginHistory#CAPACITY}.
 *
 * <p><b>Threading:</b> the test thread only.
 */
class PluginsDocumentTest {

    private static final Instant NOW = Instant.parse("2026-12-02T11:00:00Z");
    private static final String SHA_V1 = "a".repeat(64);
    private static final String SHA_V3 = "c".repeat(64);

    private final PluginHistory history = new PluginHistory(Clock.fixed(NOW, ZoneOffset.UTC));

    private static DeployStatus refused(String file, String sha, String version, String running, String reason) {
        return new DeployStatus(file, sha, DeployStatus.Outcome.ROLLED_BACK, Optional.of("io.troupe.sample.counter"),
                Optional.of(version), Optional.of(running), Optional.of(reason), NOW);
    }

    @Test
    void aSwapAndARollbackAreRecordedWithVersionsAndTheHostsReasonNewestFirst() {
        history.known(14, "1.0.0");
        history.updated(14, "counter.jar", "io.troupe.sample.counter", "2.0.0");
        history.updated(14, "counter.jar", "io.troupe.sample.counter", "3.0.0");
        history.updated(14, "counter.jar", "io.troupe.sample.counter", "2.0.0");
        assertTrue(history.outcome(refused("counter.jar", SHA_V3, "3.0.0", "2.0.0", "it did not register"), true));

        JsonNode view = JsonTrees.read(new PluginsDocument("/opt/troupe/deploy", List.of(), history.entries()));

        JsonNode entries = view.get("history");
        assertEquals(4, entries.size());
        assertEquals("rolled-back", entries.at("/0/kind").asText());
        assertEquals("3.0.0", entries.at("/0/to").asText());
        assertEquals("it did not register", entries.at("/0/reason").asText());
        assertEquals("updated", entries.at("/1/kind").asText());
        assertEquals("3.0.0", entries.at("/1/from").asText());
        assertEquals("2.0.0", entries.at("/1/to").asText());
        assertEquals("1.0.0", entries.at("/3/from").asText());
        assertEquals(NOW.toString(), entries.at("/3/time").asText());
        assertEquals(4, history.revision(14));
        assertEquals("/opt/troupe/deploy", view.get("folder").asText());
    }

    @Test
    void anAdministratorsRollbackIsRecordedWithWhoAsked() {
        history.action(PluginHistory.Kind.ROLLBACK, "counter.jar", "io.troupe.sample.counter", "2.0.0", "1.0.0",
                "by an administrator from 127.0.0.1");

        JsonNode entry = JsonTrees.read(new PluginsDocument(null, List.of(), history.entries())).at("/history/0");

        assertEquals("rollback", entry.get("kind").asText());
        assertEquals("2.0.0", entry.get("from").asText());
        assertEquals("1.0.0", entry.get("to").asText());
        assertEquals("by an administrator from 127.0.0.1", entry.get("reason").asText());
    }

    @Test
    void anOutcomeIsRecordedOnceAndTheStandingOnesAtStartNotAtAll() {
        DeployStatus standing = refused("kv.jar", SHA_V1, "6.0.0", "5.0.0", "cannot import the state");
        assertTrue(history.outcome(standing, false));
        assertFalse(history.outcome(standing, true));
        history.forgetOutcome("kv.jar");
        assertTrue(history.outcome(standing, true));

        assertEquals(1, history.entries().size());
        assertEquals(1, history.sequence());
    }

    @Test
    void theHistoryKeepsItsLatestEntriesOnly() {
        for (int i = 0; i < PluginHistory.CAPACITY + 50; i++) {
            history.installed(i, "p" + i + ".jar", "p" + i, "1.0.0");
        }

        List<PluginHistory.Entry> entries = history.entries();
        assertEquals(PluginHistory.CAPACITY, entries.size());
        assertEquals(PluginHistory.CAPACITY + 50, entries.get(0).sequence());
        assertEquals("p" + (PluginHistory.CAPACITY + 49) + ".jar", entries.get(0).file());
        assertEquals(1, history.revision(3), "an installed bundle is at its first revision");
    }

    @Test
    void aPluginRowSaysWhatRunsWhatItProvidesWhatTheHostRefusedAndWhereARollbackGoes() {
        PluginRow counter = new PluginRow("counter.jar", true, 14, "io.troupe.sample.counter", "2.0.0", "ACTIVE", 2,
                List.of("counter.add", "counter.get"), List.of(), refused("counter.jar", SHA_V3, "3.0.0", "2.0.0",
                "it did not register"), true, "1.0.0");
        PluginRow broken = new PluginRow("broken.jar", true, -1, null, null, PluginRow.NOT_INSTALLED, 0, List.of(),
                List.of(), null, false, null);

        JsonNode view = JsonTrees.read(new PluginsDocument(null, List.of(broken, counter), List.of()));

        assertTrue(view.get("folder").isNull());
        JsonNode row = view.at("/plugins/1");
        assertEquals("counter.jar", row.get("file").asText());
        assertEquals(14, row.get("bundleId").asLong());
        assertEquals("2.0.0", row.get("version").asText());
        assertEquals(2, row.get("revision").asInt());
        assertEquals("counter.get", row.at("/handlers/1").asText());
        assertEquals("1.0.0", row.get("rollbackTo").asText());
        assertEquals("rolled-back", row.at("/outcome/outcome").asText());
        assertEquals("2.0.0", row.at("/outcome/runningVersion").asText());
        assertTrue(row.at("/outcome/refused").asBoolean());
        JsonNode notInstalled = view.at("/plugins/0");
        assertEquals(-1, notInstalled.get("bundleId").asLong());
        assertEquals("NOT INSTALLED", notInstalled.get("state").asText());
        assertTrue(notInstalled.get("symbolicName").isNull());
        assertTrue(notInstalled.get("outcome").isNull());
        assertTrue(notInstalled.get("rollbackTo").isNull());
    }
}
