package io.troupe.launcher;

import java.io.PrintStream;
import java.util.function.IntConsumer;

/**
 * The launcher's part of the fatal-error rule (the host's {@code io.troupe.host.supervise} holds the rest): a
 * {@link VirtualMachineError} ({@link OutOfMemoryError}, {@link StackOverflowError}, {@link InternalError},
 * {@link UnknownError}), thrown or among the causes of what was thrown, ends the process at once with exit
 * status {@value #EXIT_STATUS}.
 *
 * <ul>
 *   <li>As the JVM's default uncaught exception handler from the launcher's first statement: it covers the
 *       time before the host bundle starts and after it stops (while the host runs, the host's handler
 *       replaces it and writes the FATAL record to {@code log/troupe.log}). A fatal error: one
 *       {@code troupe: FATAL: ...} line on stderr, then a halt; anything else: the thread's stack trace on
 *       stderr, as the JVM would print it.</li>
 *   <li>For Felix's own log ({@link FrameworkLog}): Felix catches and logs what its threads meet (an event
 *       dispatch, a bundle's start); a fatal error among them goes to whichever default handler is in force,
 *       so that the host's writes the record while it runs.</li>
 * </ul>
 *
 * <p><b>Threading:</b> called by the JVM on the dying thread, or by Felix on any thread; immutable.
 */
final class FatalErrorExit implements Thread.UncaughtExceptionHandler {

    /** The exit status after a fatal error; the host's {@code FatalExit} uses the same. */
    static final int EXIT_STATUS = 70;
    private static final int MAX_CAUSES = 16;

    private final PrintStream err;
    private final IntConsumer halt;

    FatalErrorExit(PrintStream err, IntConsumer halt) {
        this.err = err;
        this.halt = halt;
    }

    /** Makes a new one, halting the JVM, the default uncaught exception handler. */
    static void install(PrintStream err) {
        Runtime runtime = Runtime.getRuntime();
        Thread.setDefaultUncaughtExceptionHandler(new FatalErrorExit(err, runtime::halt));
    }

    /** Whether {@code thrown}, or one of its causes, is a {@link VirtualMachineError}. */
    static boolean isFatal(Throwable thrown) {
        Throwable current = thrown;
        for (int depth = 0; current != null && depth < MAX_CAUSES; depth++) {
            if (current instanceof VirtualMachineError) {
                return true;
            }
            current = current.getCause();
        }
        return false;
    }

    /**
     * Hands a fatal {@code thrown} that Felix logged on the calling thread to the default uncaught exception
     * handler in force (the host's while it runs, else this class's); does nothing for other throwables.
     */
    static void reportLogged(Throwable thrown, PrintStream err) {
        if (thrown == null || !isFatal(thrown)) {
            return;
        }
        Thread.UncaughtExceptionHandler handler = Thread.getDefaultUncaughtExceptionHandler();
        if (handler == null) {
            handler = new FatalErrorExit(err, Runtime.getRuntime()::halt);
        }
        handler.uncaughtException(Thread.currentThread(), thrown);
    }

    @Override
    public void uncaughtException(Thread thread, Throwable thrown) {
        if (isFatal(thrown)) {
            try {
                err.println("troupe: FATAL: " + thrown + " on thread " + thread.getName() + "; Troupe halts now with"
                        + " exit status " + EXIT_STATUS + " (a supervisor such as systemd starts it again)");
                err.flush();
            } finally {
                halt.accept(EXIT_STATUS);
            }
            return;
        }
        err.println("Exception in thread \"" + thread.getName() + "\" ");
        thrown.printStackTrace(err);
        err.flush();
    }
}
