package io.troupe.host.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.helpers.BasicMDCAdapter;

/**
 * Uses of the logger by several runtimes in one JVM (the host and its core, or two embedded runtimes): the
 * logger runs while any use is open, the last use stops it, and each use's record context adds its entries.
 * A real logger with its thread, against a real temporary {@code troupe.home}.
 */
class LoggerUseTest {

    @TempDir
    Path home;

    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(stderr, true, StandardCharsets.UTF_8);
    private TroupeLogging logging;

    private TroupeLogging logging() {
        logging = new TroupeLogging(Map.of("troupe.home", home.toString(), "troupe.log.console", "false",
                "troupe.log.flushIntervalMillis", "3600000"), Clock.systemUTC(), new BasicMDCAdapter(), false,
                () -> err);
        return logging;
    }

    @AfterEach
    void stop() {
        if (logging != null) {
            logging.stop();
        }
    }

    @Test
    void theLoggerRunsWhileAnyUseIsOpenAndTheLastUseToCloseStopsIt() throws IOException {
        TroupeLogging logging = logging();
        Logger log = logging.loggerFactory().getLogger("l");
        LoggerUse first = logging.use();
        LoggerUse second = logging.use();

        first.close();
        first.close(); // idempotent: it does not count as the second use closing
        log.info("the second runtime still logs");
        logging.flush();
        List<String> running = Files.readAllLines(file());
        assertTrue(running.get(running.size() - 1).endsWith(" - the second runtime still logs"), running.toString());

        second.close();
        List<String> stopped = Files.readAllLines(file());
        assertTrue(stopped.get(stopped.size() - 1).endsWith(" - " + TroupeLogging.STOPPED_LINE), stopped.toString());
        assertEquals(1, stopped.stream().filter(line -> line.endsWith(TroupeLogging.STOPPED_LINE)).count());

        LoggerUse again = logging.use(); // a runtime started after the last one closed reopens the file
        log.info("a new runtime logs");
        again.close();
        List<String> reopened = Files.readAllLines(file());
        assertTrue(reopened.get(reopened.size() - 2).endsWith(" - a new runtime logs"), reopened.toString());
        assertEquals("", stderr.toString(StandardCharsets.UTF_8), "no record went to stderr");
    }

    @Test
    void eachUsesRecordContextAddsItsEntriesUntilTheUseCloses() throws IOException {
        TroupeLogging logging = logging();
        Logger log = logging.loggerFactory().getLogger("l");
        Thread caller = Thread.currentThread();
        LoggerUse silent = logging.use();
        LoggerUse first = logging.use();
        silent.recordContext(() -> null); // another runtime's actors: not this thread
        first.recordContext(() -> Thread.currentThread() == caller ? Map.of("actor", "echo#7") : null);

        log.info("during a turn");
        first.close();
        log.info("after the runtime closed");
        logging.flush();

        List<String> lines = Files.readAllLines(file());
        assertTrue(lines.get(0).endsWith(" - during a turn {actor=echo#7}"), lines.get(0));
        assertTrue(lines.get(1).endsWith(" - after the runtime closed"), lines.get(1));
        silent.close();
    }

    private Path file() {
        return home.resolve("log").resolve("troupe.log");
    }
}
