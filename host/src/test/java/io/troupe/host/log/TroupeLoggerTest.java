package io.troupe.host.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.BasicMDCAdapter;
import org.slf4j.helpers.BasicMarkerFactory;

import io.troupe.api.log.Fatal;

/**
 * Loggers from a {@link TroupeLoggerFactory} wired to a recording sink, a fixed clock and a private
 * MDC adapter; single-threaded.
 */
class TroupeLoggerTest {

    private static final String NL = System.lineSeparator();
    private static final String STAMP = "2026-11-29T23:59:01.123+00:00";

    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(stderr, true, StandardCharsets.UTF_8);
    private final BasicMDCAdapter mdc = new BasicMDCAdapter();
    private final String thread = Thread.currentThread().getName();
    private final Console console = new Console();
    private TroupeLogging logging;

    /** Loggers writing to the captured stderr only (no troupe.home). */
    private TroupeLoggerFactory factory(Map<String, String> properties) {
        Clock clock = Clock.fixed(Instant.parse("2026-11-29T23:59:01.123Z"), ZoneOffset.UTC);
        logging = new TroupeLogging(properties, clock, mdc, false, () -> err);
        return logging.loggerFactory();
    }

    @AfterEach
    void stopLogging() {
        if (logging != null) {
            logging.stop();
        }
    }

    /** The records written so far, after a flush; each starts with the time stamp. */
    private final class Console {
        List<String> records() {
            logging.flush();
            String text = stderr.toString(StandardCharsets.UTF_8);
            List<String> records = new ArrayList<>();
            int start = text.indexOf(STAMP);
            while (start >= 0) {
                int next = text.indexOf(STAMP, start + 1);
                records.add(text.substring(start, next < 0 ? text.length() : next));
                start = next;
            }
            return records;
        }
    }

    @Test
    void writesOneFormattedLineWithPlaceholdersFilledIn() {
        Logger log = factory(Map.of()).getLogger("io.troupe.host.HostRuntime");

        log.info("Troupe runtime {} with {} dispatchers", "started", 4);

        assertEquals(List.of(STAMP + " INFO  [" + thread + "] io.troupe.host.HostRuntime"
                + " - Troupe runtime started with 4 dispatchers" + NL), console.records());
    }

    @Test
    void defaultsToInfo() {
        Logger log = factory(Map.of()).getLogger("any.Logger");

        log.trace("t");
        log.debug("d");
        log.info("i");
        log.warn("w");
        log.error("e");

        assertFalse(log.isDebugEnabled());
        assertTrue(log.isInfoEnabled());
        assertEquals(List.of("INFO ", "WARN ", "ERROR"), levelsOf(console.records()));
    }

    @Test
    void filtersLevelsByTheLongestMatchingPrefix() {
        TroupeLoggerFactory factory = factory(Map.of(
                "troupe.log.level", "WARN",
                "troupe.log.level.io.troupe.host", "DEBUG",
                "troupe.log.level.io.troupe.host.log", "ERROR"));
        Logger other = factory.getLogger("org.apache.felix.Framework");
        Logger host = factory.getLogger("io.troupe.host.actor.ActorCell");
        Logger log = factory.getLogger("io.troupe.host.log.FileSink");

        for (Logger logger : List.of(other, host, log)) {
            logger.trace("trace from {}", logger.getName());
            logger.debug("debug from {}", logger.getName());
            logger.info("info from {}", logger.getName());
            logger.warn("warn from {}", logger.getName());
            logger.error("error from {}", logger.getName());
        }

        assertEquals(List.of(
                "warn from org.apache.felix.Framework",
                "error from org.apache.felix.Framework",
                "debug from io.troupe.host.actor.ActorCell",
                "info from io.troupe.host.actor.ActorCell",
                "warn from io.troupe.host.actor.ActorCell",
                "error from io.troupe.host.actor.ActorCell",
                "error from io.troupe.host.log.FileSink"), messagesOf(console.records()));
        assertTrue(host.isDebugEnabled());
        assertFalse(host.isTraceEnabled());
        assertFalse(log.isWarnEnabled());
    }

    @Test
    void appendsTheCallersMdcEntries() {
        Logger log = factory(Map.of()).getLogger("io.troupe.host.actor.ActorCell");

        mdc.put("actor", "/user/greeter");
        mdc.put("bundle", "com.example.greeter");
        log.info("received {}", "Hello");
        mdc.clear();
        log.info("no context");

        assertEquals(List.of(
                STAMP + " INFO  [" + thread + "] io.troupe.host.actor.ActorCell - received Hello"
                        + " {actor=/user/greeter, bundle=com.example.greeter}" + NL,
                STAMP + " INFO  [" + thread + "] io.troupe.host.actor.ActorCell - no context" + NL),
                console.records());
    }

    @Test
    void writesTheFullStackTraceOfAThrowableAfterTheLine() {
        Logger log = factory(Map.of()).getLogger("io.troupe.host.Supervisor");
        IllegalStateException failure = new IllegalStateException("actor crashed",
                new ArithmeticException("/ by zero"));

        log.error("Supervising /user/a", failure);

        assertEquals(List.of(STAMP + " ERROR [" + thread + "] io.troupe.host.Supervisor"
                + " - Supervising /user/a" + NL + printed(failure)), console.records());
    }

    @Test
    void treatsATrailingThrowableArgumentAsTheThrowable() {
        Logger log = factory(Map.of()).getLogger("l");
        RuntimeException failure = new RuntimeException("bad");

        log.warn("actor {} failed {} times", "/user/a", 3, failure);
        log.warn("one argument", (Object) failure);

        assertEquals(List.of(
                STAMP + " WARN  [" + thread + "] l - actor /user/a failed 3 times" + NL
                        + printed(failure),
                STAMP + " WARN  [" + thread + "] l - one argument" + NL + printed(failure)),
                console.records());
    }

    @Test
    void acceptsMarkersAndLeavesThemOutOfTheLine() {
        Logger log = factory(Map.of()).getLogger("l");
        Marker audit = new BasicMarkerFactory().getMarker("AUDIT");

        log.info(audit, "user {} logged in", "ada");

        assertTrue(log.isInfoEnabled(audit));
        assertEquals(List.of("user ada logged in"), messagesOf(console.records()));
    }

    @Test
    void theFluentApiHonoursTheThresholdAndKeepsKeyValuePairs() {
        Logger log = factory(Map.of()).getLogger("l");

        log.atDebug().log("hidden");
        log.atInfo().addKeyValue("actor", "/user/a").log("started in {} ms", 12);

        assertEquals(List.of("actor=/user/a started in 12 ms"), messagesOf(console.records()));
    }

    @Test
    void aNullMessageIsWrittenAsNull() {
        Logger log = factory(Map.of()).getLogger("l");

        log.info(null);

        assertEquals(List.of("null"), messagesOf(console.records()));
    }

    @Test
    void aLevelChangeReachesLoggersThatAlreadyExist() {
        TroupeLoggerFactory factory = factory(Map.of());
        Logger log = factory.getLogger("io.troupe.host.actor.ActorCell");
        assertFalse(log.isDebugEnabled());

        factory.apply(new LevelThresholds(Level.WARN, Map.of("io.troupe.host", Level.DEBUG)));

        assertTrue(log.isDebugEnabled());
        assertFalse(factory.getLogger("other").isInfoEnabled());
    }

    @Test
    void theFatalMarkerWorksByNameFromAnyMarkerFactoryAndAsAReference() {
        Logger log = factory(Map.of()).getLogger("l");
        Marker fromOtherFactory = new BasicMarkerFactory().getMarker("FATAL");
        Marker wrapping = new BasicMarkerFactory().getDetachedMarker("OPS");
        wrapping.add(Fatal.MARKER);

        log.error(fromOtherFactory, "disk gone");
        Fatal.fatal(log, "cannot go on: {}", "reason");
        log.error(wrapping, "wrapped");

        // Fatal records are written before the call returns: no flush needed to see them.
        String written = stderr.toString(StandardCharsets.UTF_8);
        assertTrue(written.contains(" - disk gone" + NL) && written.contains(" - cannot go on: reason" + NL)
                && written.contains(" - wrapped" + NL), written);
    }

    @Test
    void returnsOneLoggerPerName() {
        TroupeLoggerFactory factory = factory(Map.of());

        assertSame(factory.getLogger("a.B"), factory.getLogger("a.B"));
        assertEquals("a.B", factory.getLogger("a.B").getName());
    }

    private static List<String> levelsOf(List<String> records) {
        return records.stream().map(r -> r.substring(STAMP.length() + 1, STAMP.length() + 6)).toList();
    }

    private static List<String> messagesOf(List<String> records) {
        return records.stream()
                .map(r -> r.substring(r.indexOf(" - ") + 3, r.indexOf(NL)))
                .toList();
    }

    private static String printed(Throwable thrown) {
        StringWriter out = new StringWriter();
        thrown.printStackTrace(new PrintWriter(out, true));
        return out.toString();
    }
}
