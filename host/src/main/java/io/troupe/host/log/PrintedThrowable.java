package io.troupe.host.log;

import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * A throwable as a record carries it: its class name, its message and its stack trace exactly as
 * {@link Throwable#printStackTrace()} prints it (causes and suppressed included). Printed on the
 * logging thread before the record is rendered, because printing runs the throwable's own code
 * ({@code getMessage}, {@code toString}), which may log or throw; the record keeps only strings, so
 * it pins no class loader of the caller.
 *
 * <p><b>Threading:</b> immutable.
 *
 * @param className  the throwable's class name
 * @param message    its message; {@code null} when it has none or its {@code getMessage} threw
 * @param stackTrace the printed stack trace, ending with a line separator
 */
record PrintedThrowable(String className, String message, String stackTrace) {

    /** {@code thrown}, printed; never throws. */
    static PrintedThrowable of(Throwable thrown) {
        String message;
        try {
            message = thrown.getMessage();
        } catch (RuntimeException e) {
            message = null;
        }
        return new PrintedThrowable(thrown.getClass().getName(), message, stackTrace(thrown));
    }

    /** {@code thrown} exactly as {@link Throwable#printStackTrace()} prints it; never throws. */
    static String stackTrace(Throwable thrown) {
        StringWriter trace = new StringWriter(1024);
        try (PrintWriter writer = new PrintWriter(trace)) {
            thrown.printStackTrace(writer);
        } catch (RuntimeException e) {
            // A throwable whose toString/getMessage throws must not turn a log call into a failure.
            trace.write("[stack trace of " + thrown.getClass().getName() + " could not be printed: "
                    + e.getClass().getName() + "]" + System.lineSeparator());
        }
        return trace.toString();
    }
}
