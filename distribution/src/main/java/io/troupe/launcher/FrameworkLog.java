package io.troupe.launcher;

import java.io.PrintStream;

import org.apache.felix.framework.Logger;

/**
 * Felix's own log, written to standard error (Felix writes to standard output by default, which is
 * kept for the ready line and the shell's replies). Passed to Felix as the framework property
 * {@value #PROPERTY}; its level comes from {@code felix.log.level}. A logged throwable that is a fatal
 * error goes on to {@link FatalErrorExit}, which ends the process.
 *
 * <p><b>Threading:</b> Felix calls it from any thread; each message is written with one
 * {@code println}.
 */
final class FrameworkLog extends Logger {

    /** The Felix framework property that takes a logger instance. */
    static final String PROPERTY = "felix.log.logger";

    private final PrintStream err;

    FrameworkLog(PrintStream err) {
        this.err = err;
    }

    @Override
    protected void doLogOut(int level, String message, Throwable throwable) {
        String prefix = switch (level) {
            case LOG_ERROR -> "ERROR";
            case LOG_WARNING -> "WARNING";
            case LOG_INFO -> "INFO";
            case LOG_DEBUG -> "DEBUG";
            default -> "LOG" + level;
        };
        // Felix has already appended the throwable to the message; its stack trace is left out.
        err.println("felix: " + prefix + ": " + message);
        err.flush();
        FatalErrorExit.reportLogged(throwable, err); // a fatal error Felix caught and logged still ends the process
    }
}
