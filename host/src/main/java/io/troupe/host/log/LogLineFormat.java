package io.troupe.host.log;

import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.event.Level;

/**
 * Renders one log record as a UTF-8 text line, ready to be copied into the record queue: the default
 * {@link RecordFormat} ({@code format = text}; {@link JsonLineFormat} is the other).
 *
 * <pre>
 * 2026-11-29T23:59:01.123+00:00 INFO  [main] io.troupe.host.HostRuntime - Troupe runtime started {actor=/user/a, tenant=t1}
 * └ local time, millis, offset ┘ └lvl┘ └thr─┘ └ logger name ──────────┘   └ message ───────────┘ └ MDC, sorted, only if any ┘
 * java.lang.IllegalStateException: boom          ← the throwable, if any, exactly as printStackTrace prints it
 * 	at ...
 * </pre>
 *
 * The level is padded to five characters so that thread names line up. Every line, including the
 * last, ends with {@link System#lineSeparator()}. A lone surrogate in the text becomes {@code ?}
 * instead of failing the record.
 *
 * <p>Records are rendered straight into a reused {@link RecordBytes}, without an intermediate
 * {@code String} or {@code byte[]}: an ASCII line without MDC entries allocates nothing here.
 *
 * <p>Threading: any thread; the only state is the {@link TimestampFormat} cache.
 */
final class LogLineFormat implements RecordFormat {

    private static final byte[] NEWLINE = System.lineSeparator().getBytes(StandardCharsets.US_ASCII);
    private static final byte[][] PADDED_LEVELS = {ascii(" TRACE ["), ascii(" DEBUG ["), ascii(" INFO  ["),
            ascii(" WARN  ["), ascii(" ERROR [")};
    private static final byte[] AFTER_THREAD = ascii("] ");
    private static final byte[] BEFORE_MESSAGE = ascii(" - ");

    private final TimestampFormat timestamp;

    LogLineFormat(ZoneId zone) {
        this.timestamp = new TimestampFormat(zone);
    }

    @Override
    public void format(RecordBytes out, long epochMillis, Level level, byte[] threadName, byte[] loggerName,
            String message, Map<String, String> mdc, PrintedThrowable thrown) {
        timestamp.formatTo(epochMillis, out);
        out.append(padded(level));
        out.append(threadName);
        out.append(AFTER_THREAD);
        out.append(loggerName);
        out.append(BEFORE_MESSAGE);
        out.append(message);
        if (mdc != null && !mdc.isEmpty()) {
            out.append((byte) ' ');
            out.append(new TreeMap<>(mdc).toString());
        }
        out.append(NEWLINE);
        if (thrown != null) {
            out.append(thrown.stackTrace());
        }
    }

    /** The level padded to five characters, between the spaces and the bracket around it. */
    private static byte[] padded(Level level) {
        return switch (level) {
            case TRACE -> PADDED_LEVELS[0];
            case DEBUG -> PADDED_LEVELS[1];
            case INFO -> PADDED_LEVELS[2];
            case WARN -> PADDED_LEVELS[3];
            case ERROR -> PADDED_LEVELS[4];
        };
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
