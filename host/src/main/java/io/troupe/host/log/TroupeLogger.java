package io.troupe.host.log;

import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

/**
 * An SLF4J logger with a fixed threshold, chosen from the settings when it is created.
 *
 * <p>SLF4J's {@code AbstractLogger} checks the level and normalises the many overloads; this class
 * formats {@code {}} placeholders with {@link MessageFormatter} and writes the record. Markers are
 * accepted and ignored: the line format has no place for them. The fluent API
 * ({@code atInfo().addKeyValue(..)}) works through SLF4J's default event builder, which folds key
 * and value pairs into the message.
 *
 * <p>Threading: immutable; any thread. The record is formatted on the calling thread, so no
 * argument or throwable outlives the call.
 */
final class TroupeLogger extends LegacyAbstractLogger {

    private static final long serialVersionUID = 1L;

    // Serialization goes through AbstractLogger.readResolve, which looks the logger up by name.
    private final transient Level threshold;
    private final transient TroupeLogging logging;

    TroupeLogger(String name, Level threshold, TroupeLogging logging) {
        this.name = name;
        this.threshold = threshold;
        this.logging = logging;
    }

    @Override
    public boolean isTraceEnabled() {
        return LevelThresholds.writes(threshold, Level.TRACE);
    }

    @Override
    public boolean isDebugEnabled() {
        return LevelThresholds.writes(threshold, Level.DEBUG);
    }

    @Override
    public boolean isInfoEnabled() {
        return LevelThresholds.writes(threshold, Level.INFO);
    }

    @Override
    public boolean isWarnEnabled() {
        return LevelThresholds.writes(threshold, Level.WARN);
    }

    @Override
    public boolean isErrorEnabled() {
        return LevelThresholds.writes(threshold, Level.ERROR);
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
        logging.write(level, name, String.valueOf(message), thrown);
    }
}
