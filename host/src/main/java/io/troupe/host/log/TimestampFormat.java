package io.troupe.host.log;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

/**
 * Writes an instant as local ISO-8601 time with milliseconds and offset,
 * {@code 2026-11-29T23:59:01.123+00:00}, without going through {@link DateTimeFormatter} for each
 * record: the text up to the minute and the offset are rendered once per minute and cached as ASCII
 * bytes; seconds and milliseconds are appended as digits.
 *
 * <p>Threading: any thread. The cache is one immutable object in a volatile field; two threads that
 * cross a minute together may both render it, which is harmless.
 */
final class TimestampFormat {

    private static final DateTimeFormatter MINUTE = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:");
    private static final DateTimeFormatter OFFSET = DateTimeFormatter.ofPattern("xxx");

    private final ZoneId zone;
    private volatile Minute cached = new Minute(Long.MIN_VALUE, "", "");

    TimestampFormat(ZoneId zone) {
        this.zone = zone;
    }

    /** Appends {@code epochMillis} as local time in the zone of this format. */
    void formatTo(long epochMillis, RecordBytes out) {
        long epochMinute = Math.floorDiv(epochMillis, 60_000L);
        Minute minute = cached;
        if (minute.epochMinute != epochMinute) {
            minute = render(epochMinute);
            cached = minute;
        }
        int millisInMinute = (int) Math.floorMod(epochMillis, 60_000L);
        int seconds = millisInMinute / 1000;
        int millis = millisInMinute % 1000;
        out.append(minute.prefix);
        out.appendDigits(seconds, 2);
        out.append((byte) '.');
        out.appendDigits(millis, 3);
        out.append(minute.offset);
    }

    /**
     * Zone offsets that are not whole minutes (local mean time before 1900) would shift the seconds;
     * they do not occur in the dates a running host logs.
     */
    private Minute render(long epochMinute) {
        ZonedDateTime start = Instant.ofEpochSecond(epochMinute * 60).atZone(zone);
        return new Minute(epochMinute, MINUTE.format(start), OFFSET.format(start));
    }

    private static final class Minute {
        final long epochMinute;
        final byte[] prefix;
        final byte[] offset;

        Minute(long epochMinute, String prefix, String offset) {
            this.epochMinute = epochMinute;
            this.prefix = prefix.getBytes(StandardCharsets.US_ASCII);
            this.offset = offset.getBytes(StandardCharsets.US_ASCII);
        }
    }
}
