package io.troupe.host.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.event.Level;

/** Unit tests of the line layout; single-threaded. */
class LogLineFormatTest {

    private static final String NL = System.lineSeparator();
    private static final Instant INSTANT = Instant.parse("2026-11-29T23:59:01.123Z");

    private final LogLineFormat format = new LogLineFormat();

    @Test
    void writesTimestampLevelThreadLoggerAndMessageOnOneLine() {
        String line = format.format(OffsetDateTime.ofInstant(INSTANT, ZoneOffset.UTC), Level.INFO,
                "main", "io.troupe.host.HostRuntime", "Troupe runtime started", null, null);

        assertEquals("2026-11-29T23:59:01.123+00:00 INFO  [main] io.troupe.host.HostRuntime"
                + " - Troupe runtime started" + NL, line);
    }

    @Test
    void writesLocalTimeWithItsOffsetAndAllThreeMillisecondDigits() {
        OffsetDateTime time = OffsetDateTime.ofInstant(Instant.parse("2026-11-29T23:59:01Z"),
                ZoneOffset.ofHoursMinutes(5, 30));

        String line = format.format(time, Level.INFO, "t", "l", "m", null, null);

        assertTrue(line.startsWith("2026-11-30T05:29:01.000+05:30 INFO "), line);
    }

    @Test
    void padsEveryLevelToFiveCharacters() {
        OffsetDateTime time = OffsetDateTime.ofInstant(INSTANT, ZoneOffset.UTC);
        for (Level level : Level.values()) {
            String line = format.format(time, level, "main", "l", "m", null, null);
            String padded = String.format("%-5s", level.name());
            assertTrue(line.startsWith("2026-11-29T23:59:01.123+00:00 " + padded + " [main] l - m"),
                    line);
        }
    }

    @Test
    void appendsMdcEntriesInKeyOrderWhenThereAreAny() {
        String line = format.format(OffsetDateTime.ofInstant(INSTANT, ZoneOffset.UTC), Level.WARN,
                "worker-1", "io.troupe.host.actor.ActorCell", "restarting",
                Map.of("tenant", "t1", "actor", "/user/a"), null);

        assertEquals("2026-11-29T23:59:01.123+00:00 WARN  [worker-1] io.troupe.host.actor.ActorCell"
                + " - restarting {actor=/user/a, tenant=t1}" + NL, line);
    }

    @Test
    void writesNoMdcBracesWhenTheMdcIsEmpty() {
        OffsetDateTime time = OffsetDateTime.ofInstant(INSTANT, ZoneOffset.UTC);

        assertTrue(format.format(time, Level.INFO, "t", "l", "m", Map.of(), null).endsWith(" - m" + NL));
        assertTrue(format.format(time, Level.INFO, "t", "l", "m", null, null).endsWith(" - m" + NL));
    }

    @Test
    void printsTheWholeStackTraceWithCausesAndSuppressedOnTheFollowingLines() {
        IllegalStateException thrown = new IllegalStateException("boom",
                new java.io.IOException("disk gone"));
        thrown.addSuppressed(new IllegalArgumentException("also this"));

        String record = format.format(OffsetDateTime.ofInstant(INSTANT, ZoneOffset.UTC),
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

        String record = format.format(OffsetDateTime.ofInstant(INSTANT, ZoneOffset.UTC),
                Level.ERROR, "main", "l", "failed", null, hostile);

        assertTrue(record.contains("could not be printed: java.lang.UnsupportedOperationException"),
                record);
    }

    private static String printed(Throwable thrown) {
        StringWriter out = new StringWriter();
        thrown.printStackTrace(new PrintWriter(out, true));
        return out.toString();
    }
}
