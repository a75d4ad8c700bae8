package io.troupe.client.cli;

/**
 * The command line or the installation's configuration cannot be used: {@link Main} prints the
 * message and the usage, and exits with {@link Main#EXIT_USAGE}.
 *
 * <p><b>Threading:</b> immutable; any thread.
 */
final class UsageException extends Exception {

    private static final long serialVersionUID = 1L;

    UsageException(String message) {
        super(message, null, false, false);
    }
}
