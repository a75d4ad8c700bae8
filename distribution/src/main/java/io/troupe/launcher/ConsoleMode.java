package io.troupe.launcher;

import java.util.Locale;

/**
 * How the user talks to a running Troupe: through the interactive Gogo shell on a terminal, or by
 * command lines on standard input (see the shell bundle's script console). {@code bin/troupe} chooses
 * with {@code [ -t 0 ]} and passes the system property {@value #PROPERTY}, which the launcher also
 * hands to the framework.
 *
 * <p><b>Threading:</b> immutable.
 */
enum ConsoleMode {

    /** Standard input is a terminal: the gogo.jline shell runs on it. */
    TTY("tty"),
    /** Standard input is a pipe or a file: each line is run as a command; gogo.jline is not installed. */
    SCRIPT("script");

    /** The system and framework property naming the mode. */
    static final String PROPERTY = "troupe.console";

    private final String value;

    ConsoleMode(String value) {
        this.value = value;
    }

    /** The property value, {@code tty} or {@code script}. */
    String value() {
        return value;
    }

    /**
     * The mode named by {@code value}; when it is {@code null} (the launcher was started without
     * {@code bin/troupe}), {@link #TTY} if the JVM has a console, else {@link #SCRIPT}.
     */
    static ConsoleMode of(String value, boolean hasConsole) throws LauncherException {
        if (value == null || value.isBlank()) {
            return hasConsole ? TTY : SCRIPT;
        }
        String wanted = value.strip().toLowerCase(Locale.ROOT);
        for (ConsoleMode mode : values()) {
            if (mode.value.equals(wanted)) {
                return mode;
            }
        }
        throw new LauncherException(PROPERTY + " must be tty or script, was '" + value + "'", LauncherException.USAGE);
    }
}
