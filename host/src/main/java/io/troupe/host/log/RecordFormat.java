package io.troupe.host.log;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.slf4j.event.Level;

/**
 * How a record becomes UTF-8 bytes: {@link LogLineFormat} (text, the default) or {@link JsonLineFormat}
 * (one JSON object per line), as the key {@code format} of {@code etc/io.troupe.log.cfg} says.
 *
 * <p><b>Threading:</b> implementations are called from any thread at once, on the thread that logs; the
 * {@code RecordBytes} form must allocate nothing for an ASCII record without MDC entries or throwable.
 */
interface RecordFormat {

    /**
     * Appends one record to {@code out}, ending with a line separator. Calls no code but the JDK's:
     * the throwable was printed beforehand ({@link PrintedThrowable#of}).
     *
     * @param threadName the thread's name as UTF-8
     * @param loggerName the logger's name as UTF-8
     * @param mdc        the record's MDC entries; {@code null} or empty for none
     * @param thrown     the printed throwable; {@code null} for none
     */
    void format(RecordBytes out, long epochMillis, Level level, byte[] threadName, byte[] loggerName,
            String message, Map<String, String> mdc, PrintedThrowable thrown);

    /** The record as a new array, for the rare paths (the logger's own records). */
    default byte[] format(long epochMillis, Level level, String threadName, String loggerName,
            String message, Map<String, String> mdc, Throwable thrown) {
        RecordBytes out = new RecordBytes(128 + loggerName.length() + message.length());
        format(out, epochMillis, level, out.threadName.bytesOf(threadName),
                loggerName.getBytes(StandardCharsets.UTF_8), message, mdc,
                thrown == null ? null : PrintedThrowable.of(thrown));
        return out.toArray();
    }
}
