package io.troupe.host.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.slf4j.event.Level;

/** Unit tests of property parsing; single-threaded, no system properties touched. */
class LogSettingsTest {

    @Test
    void withoutPropertiesTheRootIsInfoAndLoggingIsConsoleOnly() {
        LogSettings settings = LogSettings.parse(Map.of("java.version", "17"));

        assertEquals(Level.INFO, settings.thresholds().root());
        assertEquals(Optional.empty(), settings.logFile());
        assertEquals(List.of(), settings.warnings());
    }

    @Test
    void levelNamesAreReadIgnoringCaseAndSurroundingBlanks() {
        LogSettings settings = LogSettings.parse(Map.of(
                "troupe.log.level", " debug ",
                "troupe.log.level.io.troupe.host", "Trace"));

        assertEquals(Level.DEBUG, settings.thresholds().root());
        assertEquals(Level.TRACE, settings.thresholds().thresholdFor("io.troupe.host.Mailbox"));
        assertEquals(List.of(), settings.warnings());
    }

    @Test
    void anInvalidRootLevelFallsBackToInfoWithExactlyOneWarning() {
        LogSettings settings = LogSettings.parse(Map.of("troupe.log.level", "LOUD"));

        assertEquals(Level.INFO, settings.thresholds().root());
        assertEquals(List.of("Invalid value \"LOUD\" for troupe.log.level: expected one of"
                + " TRACE, DEBUG, INFO, WARN, ERROR; using the default INFO"), settings.warnings());
    }

    @Test
    void anInvalidPrefixLevelIsIgnoredWithExactlyOneWarning() {
        LogSettings settings = LogSettings.parse(Map.of(
                "troupe.log.level", "WARN",
                "troupe.log.level.io.troupe", "ERROR",
                "troupe.log.level.io.troupe.host", "VERBOSE"));

        assertEquals(Level.ERROR, settings.thresholds().thresholdFor("io.troupe.host.Mailbox"));
        assertEquals(1, settings.warnings().size());
        String warning = settings.warnings().get(0);
        assertTrue(warning.startsWith("Invalid value \"VERBOSE\" for troupe.log.level.io.troupe.host:"
                + " expected one of TRACE, DEBUG, INFO, WARN, ERROR; ignored"), warning);
    }

    @Test
    void aLevelPropertyWithAnEmptyPrefixIsIgnoredWithAWarning() {
        LogSettings settings = LogSettings.parse(Map.of("troupe.log.level.", "DEBUG"));

        assertEquals(Level.INFO, settings.thresholds().thresholdFor("anything"));
        assertEquals(List.of("Property troupe.log.level. names no logger prefix; ignored"),
                settings.warnings());
    }

    @Test
    void troupeHomePutsTheLogFileInItsLogFolder() {
        LogSettings settings = LogSettings.parse(Map.of("troupe.home", "/opt/troupe"));

        assertEquals(Optional.of(Path.of("/opt/troupe", "log", "troupe.log")), settings.logFile());
    }

    @Test
    void aBlankTroupeHomeMeansConsoleOnlyWithAWarning() {
        LogSettings settings = LogSettings.parse(Map.of("troupe.home", "  "));

        assertEquals(Optional.empty(), settings.logFile());
        assertEquals(List.of("Property troupe.home is blank; logging to the console only"),
                settings.warnings());
    }
}
