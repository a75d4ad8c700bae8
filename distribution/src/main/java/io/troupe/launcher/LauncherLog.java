package io.troupe.launcher;

import java.io.PrintStream;

/**
 * The launcher's messages to the user, on standard error, each prefixed with {@code troupe:}.
 * Standard output is left to the ready line and the shell.
 *
 * <p><b>Threading:</b> any thread; each message is one {@code println}, which {@link PrintStream}
 * writes atomically.
 */
final class LauncherLog {

    private final PrintStream err;

    LauncherLog(PrintStream err) {
        this.err = err;
    }

    void info(String message) {
        err.println("troupe: " + message);
        err.flush();
    }

    void warn(String message) {
        err.println("troupe: warning: " + message);
        err.flush();
    }

    void error(String message) {
        err.println("troupe: error: " + message);
        err.flush();
    }
}
