package io.troupe.store.osgi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.troupe.config.ConfigurationProblem;

/**
 * The store's configuration checked against its typed model: defaults, good values, and bad ones that
 * are named and keep the last good value.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread.
 */
class StoreSettingsTest {

    private static final String CFG = "file:/opt/troupe/etc/io.troupe.store.cfg";

    private final List<ConfigurationProblem> problems = new ArrayList<>();

    @Test
    void defaultsAreTheDataFolderAndSyncedWrites() {
        StoreSettings settings = StoreSettings.defaults();

        assertEquals("data/state.mv.db", settings.file());
        assertTrue(settings.syncWrites());
        assertEquals(Path.of("/opt/troupe/data/state.mv.db"), settings.resolve(Path.of("/opt/troupe")));
    }

    @Test
    void readsBothKeysAsFileInstallDeliversThem() {
        StoreSettings settings = StoreSettings.parse(Map.of("file", "/var/lib/troupe/state.mv.db",
                "syncWrites", "false", "felix.fileinstall.filename", CFG), StoreSettings.defaults(), problems::add);

        assertTrue(problems.isEmpty(), problems.toString());
        assertEquals("/var/lib/troupe/state.mv.db", settings.file());
        assertFalse(settings.syncWrites());
        assertEquals(Path.of("/var/lib/troupe/state.mv.db"), settings.resolve(Path.of("/opt/troupe")));
    }

    @Test
    void aBadValueIsNamedWithFileAndKeyAndKeepsTheLastGoodOne() {
        StoreSettings good = StoreSettings.parse(Map.of("syncWrites", "false"), StoreSettings.defaults(),
                problems::add);

        StoreSettings next = StoreSettings.parse(Map.of("syncWrites", "maybe", "felix.fileinstall.filename", CFG),
                good, problems::add);

        assertFalse(next.syncWrites());
        assertEquals(1, problems.size(), problems.toString());
        assertEquals("file /opt/troupe/etc/io.troupe.store.cfg: syncWrites = 'maybe': not true or false; keeping false",
                problems.get(0).toString());
    }

    @Test
    void aBlankFileIsRefusedAndTheFileKeptIsThePreviousOne() {
        StoreSettings good = StoreSettings.parse(Map.of("file", "data/other.mv.db"), StoreSettings.defaults(),
                problems::add);

        StoreSettings next = StoreSettings.parse(Map.of("file", "  ", "felix.fileinstall.filename", CFG), good,
                problems::add);

        assertEquals("data/other.mv.db", next.file());
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).toString().startsWith("file /opt/troupe/etc/io.troupe.store.cfg: file = "),
                problems.get(0).toString());
        assertTrue(problems.get(0).toString().endsWith("keeping data/other.mv.db"), problems.get(0).toString());
    }

    @Test
    void unknownKeysAreListed() {
        assertEquals(List.of("sync"), StoreSettings.unknownKeys(Map.of("sync", "true", "service.pid", "x")));
    }
}
