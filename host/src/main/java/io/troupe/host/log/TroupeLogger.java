package io.troupe.host.log;

import java.nio.charset.StandardCharsets;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

import io.troupe.api.log.Fatal;

/**
 * An SLF4J logger whose threshold follows the configuration live.
 *
 * <p>SLF4J's {@code AbstractLogger} checks the level and normalises the many overloads; this class
 * formats {@code {}} placeholders with {@link MessageFormatter} and hands the record to
 * {@link TroupeLogging}. An ERROR record with the {@value Fatal#MARKER_NAME} marker (directly or as
 * a reference) is written synchronously, see {@link Fatal}; other markers are accepted and left out
 * of the line. The fluent API ({@code atInfo().addKeyValue(..)}) works through SLF4J's default event
 * builder, which folds key and value pairs into the message.
 *
 * <p>Threading: any thread. The threshold is a volatile field set by {@link TroupeLoggerFactory}
 * when the configuration changes. The record is formatted on the calling thread, so no argument or
 * throwable outlives the call.
 */
final class TroupeLogger extends LegacyAbstractLogger {

    private static final long serialVersionUID = 1L;

    // Serialization goes through AbstractLogger.readResolve, which looks the logger up by name.
    private final transient TroupeLogging logging;
    /** The name in UTF-8, as every record carries it. */
    private final transient byte[] nameBytes;
    private transient volatile int threshold;

    TroupeLogger(String name, Level threshold, TroupeLogging logging) {
        this.name = name;
        this.threshold = threshold.toInt();
        this.logging = logging;
        this.nameBytes = name.getBytes(StandardCharsets.UTF_8);
    }

    void setThreshold(Level level) {
        threshold = level.toInt();
    }

    @Override
    public boolean isTraceEnabled() {
        return Level.TRACE.toInt() >= threshold;
    }

    @Override
    public boolean isDebugEnabled() {
        return Level.DEBUG.toInt() >= threshold;
    }

    @Override
    public boolean isInfoEnabled() {
        return Level.INFO.toInt() >= threshold;
    }

    @Override
    public boolean isWarnEnabled() {
        return Level.WARN.toInt() >= threshold;
    }

    @Override
    public boolean isErrorEnabled() {
        return Level.ERROR.toInt() >= threshold;
    }

    /** No caller location is computed, so no boundary class is needed. */
    @Override
    protected String getFullyQualifiedCallerName() {
        return null;
    }

    @Override
    protected void handleNormalizedLoggingCall(Level level, Marker marker, String pattern,
            Object[] arguments, Throwable throwable) {
        Object[] args = arguments;
        Throwable thrown = throwable;
        // AbstractLogger only extracts a trailing throwable from varargs calls; do the same for the
        // one- and two-argument overloads, as SLF4J's documentation promises.
        if (thrown == null) {
            thrown = MessageFormatter.getThrowableCandidate(args);
            if (thrown != null) {
                args = MessageFormatter.trimmedCopy(args);
            }
        }
        String message = args == null || args.length == 0
                ? pattern
                : MessageFormatter.basicArrayFormat(pattern, args);
        boolean fatal = level == Level.ERROR && isFatal(marker);
        logging.write(level, nameBytes, String.valueOf(message), thrown, fatal);
    }

    /** Whether {@code marker} is, or refers to, a marker named {@value io.troupe.api.log.Fatal#MARKER_NAME}. */
    private static boolean isFatal(Marker marker) {
        return marker != null
                && (Fatal.MARKER_NAME.equals(marker.getName()) || marker.contains(Fatal.MARKER_NAME));
    }
}
