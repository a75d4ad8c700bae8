package io.troupe.host.log;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.event.Level;

/**
 * Renders one log record as text.
 *
 * <pre>
 * 2026-11-29T23:59:01.123+00:00 INFO  [main] io.troupe.host.HostRuntime - Troupe runtime started {actor=/user/a}
 * └ local time, millis, offset ┘ └lvl┘ └thr─┘ └ logger name ──────────┘   └ message ───────────┘ └ MDC, sorted, only if any ┘
 * java.lang.IllegalStateException: boom          ← the throwable, if any, exactly as printStackTrace prints it
 * 	at ...
 * </pre>
 *
 * The level is padded to five characters so that thread names line up. Every line, including the
 * last, ends with {@link System#lineSeparator()}.
 *
 * <p>Threading: stateless and immutable; any thread.
 */
final class LogLineFormat {

    private static final DateTimeFormatter TIMESTAMP =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSxxx");
    private static final String NEWLINE = System.lineSeparator();

    /**
     * @param mdc      the caller's MDC entries; {@code null} or empty for none
     * @param thrown   the throwable to print in full after the line; {@code null} for none
     */
    String format(OffsetDateTime time, Level level, String threadName, String loggerName,
            String message, Map<String, String> mdc, Throwable thrown) {
        StringBuilder line = new StringBuilder(128);
        TIMESTAMP.formatTo(time, line);
        line.append(' ').append(level.name());
        for (int pad = level.name().length(); pad < 5; pad++) {
            line.append(' ');
        }
        line.append(" [").append(threadName).append("] ")
                .append(loggerName).append(" - ").append(message);
        if (mdc != null && !mdc.isEmpty()) {
            line.append(' ').append(new TreeMap<>(mdc));
        }
        line.append(NEWLINE);
        if (thrown != null) {
            appendStackTrace(line, thrown);
        }
        return line.toString();
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
