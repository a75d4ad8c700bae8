package io.troupe.host.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.helpers.BasicMDCAdapter;

/** The lifecycle the host activator drives, against a real temporary folder; single-threaded. */
class TroupeLoggingTest {

    private static final String NL = System.lineSeparator();

    @TempDir
    Path home;

    private final RecordingSink console = new RecordingSink();

    private TroupeLogging logging(Map<String, String> properties) {
        Clock clock = Clock.fixed(Instant.parse("2026-11-29T23:59:01.123Z"), ZoneOffset.UTC);
        return new TroupeLogging(LogSettings.parse(properties), clock, console,
                new BasicMDCAdapter());
    }

    @Test
    void withTroupeHomeEveryRecordGoesToTheConsoleAndToTheLogFile() throws IOException {
        TroupeLogging logging = logging(Map.of("troupe.home", home.toString()));
        Path file = home.resolve("log").resolve("troupe.log");

        new TroupeLoggerFactory(logging).getLogger("io.troupe.host.HostRuntime")
                .info("Troupe runtime started");

        assertEquals(Optional.of(file), logging.logFile());
        assertEquals(1, console.records.size());
        assertEquals(console.records.get(0), read(file));
        logging.stop();
    }

    @Test
    void withoutTroupeHomeLoggingIsConsoleOnly() throws IOException {
        TroupeLogging logging = logging(Map.of());

        new TroupeLoggerFactory(logging).getLogger("l").info("hello");

        assertEquals(Optional.empty(), logging.logFile());
        assertEquals(1, console.records.size());
        try (var files = Files.list(home)) {
            assertEquals(0, files.count());
        }
    }

    @Test
    void stopFlushesAndClosesTheFileAndLaterRecordsReachOnlyTheConsole() throws IOException {
        TroupeLogging logging = logging(Map.of("troupe.home", home.toString()));
        Logger log = new TroupeLoggerFactory(logging).getLogger("l");
        log.info("before stop");

        logging.stop();
        log.info("after stop");
        logging.stop();

        assertEquals(Optional.empty(), logging.logFile());
        assertEquals(2, console.records.size());
        assertEquals(console.records.get(0), read(home.resolve("log/troupe.log")));
        assertTrue(console.flushes.get() >= 1);
        assertEquals(0, console.closes.get(), "stderr belongs to the JVM");
    }

    @Test
    void startAfterStopReopensTheFileAndAppends() throws IOException {
        TroupeLogging logging = logging(Map.of("troupe.home", home.toString()));
        Logger log = new TroupeLoggerFactory(logging).getLogger("l");
        log.info("first run");
        logging.stop();
        log.info("while stopped");

        logging.start();
        logging.start();
        log.info("second run");
        logging.stop();

        assertEquals(console.records.get(0) + console.records.get(2),
                read(home.resolve("log/troupe.log")));
    }

    @Test
    void anInvalidLevelPropertyIsWrittenOnceAsAWarnRecordToConsoleAndFile() throws IOException {
        TroupeLogging logging = logging(Map.of(
                "troupe.home", home.toString(),
                "troupe.log.level", "LOUD"));
        Logger log = new TroupeLoggerFactory(logging).getLogger("l");
        log.debug("filtered by the default level");
        log.info("kept by the default level");
        logging.stop();

        assertEquals(List.of(
                "2026-11-29T23:59:01.123+00:00 WARN  [" + Thread.currentThread().getName() + "] "
                        + TroupeLogging.class.getName() + " - Invalid value \"LOUD\" for"
                        + " troupe.log.level: expected one of TRACE, DEBUG, INFO, WARN, ERROR;"
                        + " using the default INFO" + NL,
                "2026-11-29T23:59:01.123+00:00 INFO  [" + Thread.currentThread().getName()
                        + "] l - kept by the default level" + NL),
                console.records);
        assertEquals(String.join("", console.records), read(home.resolve("log/troupe.log")));
    }

    @Test
    void aLogFileThatCannotBeOpenedLeavesLoggingOnTheConsoleWithAWarning() throws IOException {
        Path notAFolder = Files.writeString(home.resolve("plain-file"), "x");

        TroupeLogging logging = logging(Map.of("troupe.home", notAFolder.toString()));
        new TroupeLoggerFactory(logging).getLogger("l").info("still logged");

        assertEquals(Optional.empty(), logging.logFile());
        assertEquals(2, console.records.size());
        String warning = console.records.get(0);
        assertTrue(warning.contains(" WARN  ") && warning.contains("Cannot open log file "
                + notAFolder.resolve("log").resolve("troupe.log") + "; logging to the console only"
                + NL), warning);
        assertTrue(warning.contains("java.nio.file."), "the cause is printed: " + warning);
    }

    @Test
    void flushReachesEverySink() {
        TroupeLogging logging = logging(Map.of());

        logging.flush();

        assertEquals(1, console.flushes.get());
    }

    @Test
    void ofRejectsALoggerFactoryOfAnotherProvider() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> TroupeLogging.of(name -> null));

        assertTrue(e.getMessage().contains("instead of " + TroupeServiceProvider.class.getName()),
                e.getMessage());
    }

    private static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }
}
