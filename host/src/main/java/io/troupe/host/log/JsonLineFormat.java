package io.troupe.host.log;

import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.event.Level;

/**
 * Renders one log record as one line of JSON (JSON Lines: one object per record, ending with
 * {@code \n}), for log shippers; chosen by {@code format = json} in {@code etc/io.troupe.log.cfg}.
 *
 * <pre>
 * {"timestamp":"2026-11-29T23:59:01.123+00:00","level":"ERROR","thread":"worker-1",
 *  "logger":"io.troupe.host.actor.ActorCell","message":"restarting",
 *  "mdc":{"actor":"/user/a","tenant":"t1"},
 *  "throwable":{"class":"java.lang.IllegalStateException","message":"boom","stack":"java.lang...\n\tat ..."}}
 * </pre>
 * (one line in the file). The members, always in this order:
 * <ul>
 * <li>{@code timestamp}: local time with milliseconds and offset, as in the text format;</li>
 * <li>{@code level}: {@code TRACE}, {@code DEBUG}, {@code INFO}, {@code WARN} or {@code ERROR};</li>
 * <li>{@code thread}, {@code logger}, {@code message}: strings;</li>
 * <li>{@code mdc}: only when the record has MDC entries (the caller's and the runtime's, such as
 *     {@code actor} and {@code tenant}): an object of strings, keys in order ({@code null} for a null
 *     value);</li>
 * <li>{@code throwable}: only with a throwable: {@code class}, {@code message} (left out when it has
 *     none) and {@code stack}, the stack trace as {@link Throwable#printStackTrace()} prints it.</li>
 * </ul>
 * Strings are escaped by {@link JsonString}: nothing in a record can break its line or its object.
 *
 * <p>Threading: any thread; the only state is the {@link TimestampFormat} cache.
 */
final class JsonLineFormat implements RecordFormat {

    private static final byte[] TIMESTAMP = ascii("{\"timestamp\":\"");
    private static final byte[][] LEVELS = {ascii("\",\"level\":\"TRACE\",\"thread\":"),
        ascii("\",\"level\":\"DEBUG\",\"thread\":"), ascii("\",\"level\":\"INFO\",\"thread\":"),
        ascii("\",\"level\":\"WARN\",\"thread\":"), ascii("\",\"level\":\"ERROR\",\"thread\":")};
    private static final byte[] LOGGER = ascii(",\"logger\":");
    private static final byte[] MESSAGE = ascii(",\"message\":");
    private static final byte[] MDC = ascii(",\"mdc\":{");
    private static final byte[] NULL = ascii("null");
    private static final byte[] THROWABLE_CLASS = ascii(",\"throwable\":{\"class\":");
    private static final byte[] THROWABLE_MESSAGE = ascii(",\"message\":");
    private static final byte[] THROWABLE_STACK = ascii(",\"stack\":");
    private static final byte[] END = ascii("}\n");

    private final TimestampFormat timestamp;

    JsonLineFormat(ZoneId zone) {
        this.timestamp = new TimestampFormat(zone);
    }

    @Override
    public void format(RecordBytes out, long epochMillis, Level level, byte[] threadName, byte[] loggerName,
            String message, Map<String, String> mdc, PrintedThrowable thrown) {
        out.append(TIMESTAMP);
        timestamp.formatTo(epochMillis, out);
        out.append(levelAndThread(level));
        JsonString.appendUtf8(out, threadName);
        out.append(LOGGER);
        JsonString.appendUtf8(out, loggerName);
        out.append(MESSAGE);
        JsonString.append(out, message);
        if (mdc != null && !mdc.isEmpty()) {
            appendMdc(out, mdc);
        }
        if (thrown != null) {
            appendThrowable(out, thrown);
        }
        out.append(END);
    }

    private static void appendMdc(RecordBytes out, Map<String, String> mdc) {
        out.append(MDC);
        boolean first = true;
        for (Map.Entry<String, String> entry : new TreeMap<>(mdc).entrySet()) {
            if (!first) {
                out.append((byte) ',');
            }
            first = false;
            JsonString.append(out, entry.getKey());
            out.append((byte) ':');
            if (entry.getValue() == null) {
                out.append(NULL);
            } else {
                JsonString.append(out, entry.getValue());
            }
        }
        out.append((byte) '}');
    }

    private static void appendThrowable(RecordBytes out, PrintedThrowable thrown) {
        out.append(THROWABLE_CLASS);
        JsonString.append(out, thrown.className());
        if (thrown.message() != null) {
            out.append(THROWABLE_MESSAGE);
            JsonString.append(out, thrown.message());
        }
        out.append(THROWABLE_STACK);
        JsonString.append(out, thrown.stackTrace());
        out.append((byte) '}');
    }

    private static byte[] levelAndThread(Level level) {
        return switch (level) {
            case TRACE -> LEVELS[0];
            case DEBUG -> LEVELS[1];
            case INFO -> LEVELS[2];
            case WARN -> LEVELS[3];
            case ERROR -> LEVELS[4];
        };
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
