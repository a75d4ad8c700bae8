package io.troupe.host.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.event.Level;

/** Unit tests of the line layout; single-threaded. */
class LogLineFormatTest {

    private static final String NL = System.lineSeparator();
    private static final Instant INSTANT = Instant.parse("2026-11-29T23:59:01.123Z");

    private final LogLineFormat format = new LogLineFormat(ZoneOffset.UTC);

    @Test
    void writesTimestampLevelThreadLoggerAndMessageOnOneLine() {
        String line = text(format, INSTANT.toEpochMilli(), Level.INFO,
                "main", "io.troupe.host.HostRuntime", "Troupe runtime started", null, null);

        assertEquals("2026-11-29T23:59:01.123+00:00 INFO  [main] io.troupe.host.HostRuntime"
                + " - Troupe runtime started" + NL, line);
    }

    @Test
    void writesLocalTimeWithItsOffsetAndAllThreeMillisecondDigits() {
        LogLineFormat india = new LogLineFormat(ZoneOffset.ofHoursMinutes(5, 30));

        String line = text(india, Instant.parse("2026-11-29T23:59:01Z").toEpochMilli(), Level.INFO, "t", "l",
                "m", null, null);

        assertTrue(line.startsWith("2026-11-30T05:29:01.000+05:30 INFO "), line);
    }

    @Test
    void padsEveryLevelToFiveCharacters() {
        for (Level level : Level.values()) {
            String line = text(format, INSTANT.toEpochMilli(), level, "main", "l", "m", null, null);
            String padded = String.format("%-5s", level.name());
            assertTrue(line.startsWith("2026-11-29T23:59:01.123+00:00 " + padded + " [main] l - m"),
                    line);
        }
    }

    @Test
    void appendsMdcEntriesInKeyOrderWhenThereAreAny() {
        String line = text(format, INSTANT.toEpochMilli(), Level.WARN,
                "worker-1", "io.troupe.host.actor.ActorCell", "restarting",
                Map.of("tenant", "t1", "actor", "/user/a"), null);

        assertEquals("2026-11-29T23:59:01.123+00:00 WARN  [worker-1] io.troupe.host.actor.ActorCell"
                + " - restarting {actor=/user/a, tenant=t1}" + NL, line);
    }

    @Test
    void writesNoMdcBracesWhenTheMdcIsEmpty() {
        long time = INSTANT.toEpochMilli();

        assertTrue(text(format, time, Level.INFO, "t", "l", "m", Map.of(), null).endsWith(" - m" + NL));
        assertTrue(text(format, time, Level.INFO, "t", "l", "m", null, null).endsWith(" - m" + NL));
    }

    @Test
    void printsTheWholeStackTraceWithCausesAndSuppressedOnTheFollowingLines() {
        IllegalStateException thrown = new IllegalStateException("boom",
                new java.io.IOException("disk gone"));
        thrown.addSuppressed(new IllegalArgumentException("also this"));

        String record = text(format, INSTANT.toEpochMilli(),
                Level.ERROR, "main", "l", "failed", null, thrown);

        assertEquals("2026-11-29T23:59:01.123+00:00 ERROR [main] l - failed" + NL
                + printed(thrown), record);
        assertTrue(record.contains(NL + "java.lang.IllegalStateException: boom" + NL + "\tat "));
        assertTrue(record.contains("Caused by: java.io.IOException: disk gone"));
        assertTrue(record.contains("Suppressed: java.lang.IllegalArgumentException: also this"));
        assertTrue(record.endsWith(NL));
    }

    @Test
    void survivesAThrowableWhoseMessageThrows() {
        Throwable hostile = new RuntimeException() {
            private static final long serialVersionUID = 1L;

            @Override
            public String getMessage() {
                throw new UnsupportedOperationException("no message for you");
            }
        };

        String record = text(format, INSTANT.toEpochMilli(),
                Level.ERROR, "main", "l", "failed", null, hostile);

        assertTrue(record.contains("could not be printed: java.lang.UnsupportedOperationException"),
                record);
    }

    @Test
    void crossingAMinuteOrADaylightSavingChangeRendersTheNewMinuteAndOffset() {
        LogLineFormat berlin = new LogLineFormat(ZoneId.of("Europe/Berlin"));
        long beforeSwitch = Instant.parse("2026-03-29T00:59:59.999Z").toEpochMilli();

        assertTrue(text(berlin, beforeSwitch, Level.INFO, "t", "l", "m", null, null)
                .startsWith("2026-03-29T01:59:59.999+01:00 "));
        assertTrue(text(berlin, beforeSwitch + 1, Level.INFO, "t", "l", "m", null, null)
                .startsWith("2026-03-29T03:00:00.000+02:00 "));
        assertTrue(text(berlin, beforeSwitch - 59_000, Level.INFO, "t", "l", "m", null, null)
                .startsWith("2026-03-29T01:59:00.999+01:00 "), "an earlier minute after a later one");
    }

    @Test
    void encodesUtf8AndReplacesALoneSurrogateInsteadOfLosingTheRecord() {
        byte[] record = format.format(INSTANT.toEpochMilli(), Level.INFO, "t", "l", "grüße \uD800 ok", null, null);

        assertTrue(new String(record, StandardCharsets.UTF_8).endsWith(" - grüße ? ok" + NL));
    }

    private static String text(LogLineFormat format, long millis, Level level, String thread, String logger,
            String message, Map<String, String> mdc, Throwable thrown) {
        return new String(format.format(millis, level, thread, logger, message, mdc, thrown), StandardCharsets.UTF_8);
    }

    private static String printed(Throwable thrown) {
        StringWriter out = new StringWriter();
        thrown.printStackTrace(new PrintWriter(out, true));
        return out.toString();
    }
}
