package io.troupe.launcher;

/**
 * A failure the launcher reports to the user in one message and turns into an exit status.
 *
 * <p><b>Threading:</b> immutable.
 */
final class LauncherException extends Exception {

    private static final long serialVersionUID = 1L;

    /** Exit status for a failed start. */
    static final int STARTUP_FAILED = 1;
    /** Exit status for bad command-line use. */
    static final int USAGE = 2;

    private final int exitStatus;

    LauncherException(String message) {
        this(message, STARTUP_FAILED);
    }

    LauncherException(String message, Throwable cause) {
        super(message, cause);
        this.exitStatus = STARTUP_FAILED;
    }

    LauncherException(String message, int exitStatus) {
        super(message);
        this.exitStatus = exitStatus;
    }

    /** The process exit status this failure maps to. */
    int exitStatus() {
        return exitStatus;
    }

    /** A throwable's message and its causes' messages, as one line. */
    static String describe(Throwable failure) {
        StringBuilder text = new StringBuilder();
        Throwable current = failure;
        int depth = 0;
        while (current != null && depth++ < 8) {
            String message = current.getMessage();
            String part = message == null || message.isBlank()
                    ? current.getClass().getSimpleName()
                    : message.strip();
            if (text.indexOf(part) < 0) {
                if (text.length() > 0) {
                    text.append(": ");
                }
                text.append(part);
            }
            current = current.getCause() == current ? null : current.getCause();
        }
        return text.toString();
    }
}
