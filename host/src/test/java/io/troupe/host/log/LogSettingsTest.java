package io.troupe.host.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
        assertEquals(List.of("troupe.log.level = 'LOUD': not one of TRACE, DEBUG, INFO, WARN, ERROR; keeping INFO"),
                settings.warnings());
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
        assertTrue(warning.startsWith("troupe.log.level.io.troupe.host = 'VERBOSE':"
                + " not one of TRACE, DEBUG, INFO, WARN, ERROR; ignored"), warning);
    }

    @Test
    void aLevelPropertyWithAnEmptyPrefixIsIgnoredWithAWarning() {
        LogSettings settings = LogSettings.parse(Map.of("troupe.log.level.", "DEBUG"));

        assertEquals(Level.INFO, settings.thresholds().thresholdFor("anything"));
        assertEquals(List.of("troupe.log.level. names no logger prefix; ignored"),
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

    @Test
    void withoutConfigurationTheDocumentedDefaultsApply() {
        LogSettings settings = LogSettings.parse(Map.of("troupe.home", "/opt/troupe"));

        assertEquals(1000, settings.flushIntervalMillis());
        assertEquals(8 * 1024 * 1024, settings.bufferCapBytes());
        assertEquals(100, settings.fullWaitMillis());
        assertEquals(50L * 1024 * 1024, settings.rollSizeBytes());
        assertEquals(5, settings.retention());
        assertEquals(LogSettings.Console.AUTO, settings.console());
        assertEquals(Optional.of(Path.of("/opt/troupe", "etc", "io.troupe.log.cfg")), settings.configFile());
    }

    @Test
    void theConfigurationFileOverridesSystemPropertiesKeyByKey() {
        LogSettings settings = LogSettings.parse(
                Map.of("troupe.log.level", "WARN", "troupe.log.retention", "2",
                        "troupe.log.level.io.troupe", "ERROR", "troupe.log.level.org.apache", "DEBUG"),
                Map.of("level", "debug", "level.io.troupe", "TRACE", "flushIntervalMillis", "250",
                        "console", "False"),
                null);

        assertEquals(Level.DEBUG, settings.thresholds().root());
        assertEquals(Level.TRACE, settings.thresholds().thresholdFor("io.troupe.host.X"));
        assertEquals(Level.DEBUG, settings.thresholds().thresholdFor("org.apache.felix.Y"));
        assertEquals(250, settings.flushIntervalMillis());
        assertEquals(2, settings.retention());
        assertEquals(LogSettings.Console.FALSE, settings.console());
        assertEquals(List.of(), settings.warnings());
    }

    @Test
    void aBadValueInTheFileKeepsThePreviousSettingWithOneWarningNamingTheKey() {
        LogSettings previous = LogSettings.parse(Map.of(),
                Map.of("level", "DEBUG", "rollSizeBytes", "4096", "level.io.troupe", "WARN"), null);

        LogSettings next = LogSettings.parse(Map.of(),
                Map.of("level", "LOUD", "rollSizeBytes", "12", "level.io.troupe", "SOMETIMES", "retention", "x"),
                previous);

        assertEquals(Level.DEBUG, next.thresholds().root());
        assertEquals(4096, next.rollSizeBytes());
        assertEquals(Level.WARN, next.thresholds().thresholdFor("io.troupe.X"));
        assertEquals(5, next.retention());
        assertEquals(List.of(
                "io.troupe.log.cfg: level = 'LOUD': not one of TRACE, DEBUG, INFO, WARN, ERROR; keeping DEBUG",
                "io.troupe.log.cfg: rollSizeBytes = '12': below the minimum 1024; keeping 4096",
                "io.troupe.log.cfg: retention = 'x': not an integer; keeping 5",
                "io.troupe.log.cfg: level.io.troupe = 'SOMETIMES': not one of TRACE, DEBUG, INFO, WARN, ERROR;"
                        + " keeping WARN"), next.warnings());
    }

    @Test
    void aKeyRemovedFromTheFileFallsBackToItsSystemPropertyOrDefault() {
        LogSettings previous = LogSettings.parse(Map.of("troupe.log.level", "WARN"),
                Map.of("level", "TRACE", "bufferCapBytes", "65536"), null);

        LogSettings next = LogSettings.parse(Map.of("troupe.log.level", "WARN"), Map.of(), previous);

        assertEquals(Level.WARN, next.thresholds().root());
        assertEquals(8 * 1024 * 1024, next.bufferCapBytes());
    }

    @Test
    void theCapMustLeaveRoomForSegmentsAndUnknownKeysAreReported() {
        LogSettings settings = LogSettings.parse(Map.of("troupe.log.flushInterval", "5"),
                Map.of("bufferCapBytes", "1000", "levle", "DEBUG"), null);

        assertEquals(8 * 1024 * 1024, settings.bufferCapBytes());
        assertEquals(List.of(
                "Unknown key levle in io.troupe.log.cfg; ignored",
                "Unknown property troupe.log.flushInterval; ignored",
                "io.troupe.log.cfg: bufferCapBytes = '1000': below the minimum 65536; keeping 8388608"),
                settings.warnings());
    }

    @Test
    void aBadValueOfEachKindIsNamedWithItsReason() {
        LogSettings settings = LogSettings.parse(Map.of("troupe.log.configPollMillis", "5"),
                Map.of("console", "sometimes", "flushIntervalMillis", "soon", "fullWaitMillis", "60001"), null);

        assertEquals(LogSettings.Console.AUTO, settings.console());
        assertEquals(List.of(
                "io.troupe.log.cfg: flushIntervalMillis = 'soon': not an integer; keeping 1000",
                "io.troupe.log.cfg: fullWaitMillis = '60001': above the maximum 60000; keeping 100",
                "io.troupe.log.cfg: console = 'sometimes': not one of true, false, auto; keeping auto",
                "troupe.log.configPollMillis = '5': below the minimum 10; keeping 2000"), settings.warnings());
    }

    @Test
    void consoleAutoMeansInATerminalOrWithoutAFile() {
        assertTrue(LogSettings.Console.AUTO.resolve(true, true));
        assertTrue(LogSettings.Console.AUTO.resolve(false, false));
        assertFalse(LogSettings.Console.AUTO.resolve(false, true));
        assertTrue(LogSettings.Console.TRUE.resolve(false, true));
        assertFalse(LogSettings.Console.FALSE.resolve(true, false));
    }

    @Test
    void theFormatIsTextByDefaultAndJsonInAnyCaseFromTheFileOrAProperty() {
        assertEquals(LogSettings.Format.TEXT, LogSettings.parse(Map.of()).format());
        assertEquals(LogSettings.Format.JSON, LogSettings.parse(Map.of("troupe.log.format", " JSON ")).format());

        LogSettings fromFile = LogSettings.parse(Map.of("troupe.log.format", "json"), Map.of("format", "Text"), null);

        assertEquals(LogSettings.Format.TEXT, fromFile.format(), "the file wins");
        assertEquals(List.of(), fromFile.warnings());
    }

    @Test
    void aBadFormatIsNamedWithTheFileTheKeyAndTheChoicesAndKeepsThePreviousFormat() {
        LogSettings json = LogSettings.parse(Map.of(), Map.of("format", "json"), null);

        LogSettings next = LogSettings.parse(Map.of(), Map.of("format", "xml"), json);

        assertEquals(LogSettings.Format.JSON, next.format());
        assertEquals(List.of("io.troupe.log.cfg: format = 'xml': not one of text, json; keeping json"),
                next.warnings());
        assertEquals(List.of("troupe.log.format = 'logfmt': not one of text, json; keeping text"),
                LogSettings.parse(Map.of("troupe.log.format", "logfmt")).warnings());
    }
}
