package io.troupe.host.log;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.event.Level;

/**
 * Renders one log record as UTF-8 bytes, ready to be copied into the record queue.
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
 * <p>Threading: any thread; the only state is the {@link TimestampFormat} cache.
 */
final class LogLineFormat {

    private static final String NEWLINE = System.lineSeparator();
    private static final String[] PADDED_LEVELS = {"TRACE", "DEBUG", "INFO ", "WARN ", "ERROR"};

    private final TimestampFormat timestamp;

    LogLineFormat(ZoneId zone) {
        this.timestamp = new TimestampFormat(zone);
    }

    /**
     * @param mdc    the caller's MDC entries; {@code null} or empty for none
     * @param thrown the throwable to print in full after the line; {@code null} for none
     */
    byte[] format(long epochMillis, Level level, String threadName, String loggerName,
            String message, Map<String, String> mdc, Throwable thrown) {
        StringBuilder line = new StringBuilder(96 + loggerName.length() + message.length());
        timestamp.formatTo(epochMillis, line);
        line.append(' ').append(padded(level))
                .append(" [").append(threadName).append("] ")
                .append(loggerName).append(" - ").append(message);
        if (mdc != null && !mdc.isEmpty()) {
            line.append(' ').append(new TreeMap<>(mdc));
        }
        line.append(NEWLINE);
        if (thrown != null) {
            appendStackTrace(line, thrown);
        }
        return line.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String padded(Level level) {
        return switch (level) {
            case TRACE -> PADDED_LEVELS[0];
            case DEBUG -> PADDED_LEVELS[1];
            case INFO -> PADDED_LEVELS[2];
            case WARN -> PADDED_LEVELS[3];
            case ERROR -> PADDED_LEVELS[4];
        };
    }

    private static void appendStackTrace(StringBuilder line, Throwable thrown) {
        StringWriter trace = new StringWriter(1024);
        try (PrintWriter writer = new PrintWriter(trace)) {
            thrown.printStackTrace(writer);
        } catch (RuntimeException e) {
            // A throwable whose toString/getMessage throws must not turn a log call into a failure.
            trace.write("[stack trace of " + thrown.getClass().getName() + " could not be printed: "
                    + e.getClass().getName() + "]" + NEWLINE);
        }
        line.append(trace);
    }
}
