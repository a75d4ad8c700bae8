package io.troupe.host.supervise;

import java.util.Objects;

/**
 * The process-wide rule for fatal errors: a {@link VirtualMachineError} ({@link OutOfMemoryError},
 * {@link StackOverflowError}, {@link InternalError}, {@link UnknownError}), thrown or found among the causes of
 * what was thrown, means the JVM may no longer keep its promises, so the process must end rather than go on
 * half-broken. Every runtime thread's catch block asks {@link #isFatal}; on a fatal error it calls
 * {@link #fatal}, which hands the error to the {@link FatalAction} installed for the process (the host
 * installs {@link FatalExit}: one FATAL record, then a halt) and, should that action return (none installed:
 * an embedded runtime or a unit test), gives the error back for the caller to throw.
 *
 * <pre>{@code
 * } catch (Throwable t) {
 *     if (FatalErrors.isFatal(t)) {
 *         throw FatalErrors.fatal("running an IO loop iteration", t);
 *     }
 *     ... log and go on ...
 * }
 * }</pre>
 *
 * <p><b>Threading:</b> any thread; the installed action is published through a volatile field.
 */
public final class FatalErrors {

    /** How deep the causes are searched: guards against cycles the JDK does not forbid. */
    private static final int MAX_CAUSES = 16;

    private static volatile FatalAction action;
    /**
     * The last error handed to the action, as given and as given back to throw (the same for an {@link Error}),
     * so that outer catch blocks, and the action's own logging of it, pass it on instead of handing it over again.
     */
    private static volatile Throwable handled;
    private static volatile Throwable handledAsGiven;

    private FatalErrors() {
    }

    /** Whether {@code thrown}, or one of its causes, is a {@link VirtualMachineError}. */
    public static boolean isFatal(Throwable thrown) {
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
     * Hands the fatal {@code error}, met by the calling thread while {@code doing}, to the installed action,
     * which normally ends the process and never returns. An error this method gave back already is given back
     * again without the action: catch blocks around catch blocks can all call it.
     *
     * @param doing what the thread was doing, for the FATAL record ("running an IO loop iteration")
     * @return the error to throw, when the action returned (none installed): the {@link Error} itself, or an
     *         {@link Error} wrapping a non-error throwable that carries one among its causes
     */
    public static Error fatal(String doing, Throwable error) {
        Objects.requireNonNull(error, "error");
        if (alreadyHandled(error)) {
            return asError(error); // an inner catch block handed it over already: the outer ones pass it on
        }
        Error thrown = asError(error);
        handledAsGiven = error;
        handled = thrown; // before the action, which logs the error: that record must not come back here
        FatalAction installed = action;
        if (installed != null) {
            installed.onFatal(Thread.currentThread(), doing, error);
        }
        return thrown;
    }

    /**
     * Whether {@code thrown} is what {@link #fatal} gave back to be thrown: an outer catch block (a loop around
     * a task that met the error) passes it on instead of handing it to the action again.
     */
    public static boolean alreadyHandled(Throwable thrown) {
        return thrown != null && (thrown == handled || thrown == handledAsGiven);
    }

    /** {@code thrown} itself if it is an {@link Error}, else an {@link Error} wrapping it. */
    public static Error asError(Throwable thrown) {
        return thrown instanceof Error direct ? direct : new Error("fatal: " + thrown, thrown);
    }

    /** Makes {@code next} the process's action; returns the one it replaces (null for none). */
    public static FatalAction install(FatalAction next) {
        FatalAction previous = action;
        action = Objects.requireNonNull(next, "next");
        return previous;
    }

    /** Removes {@code installed} if it is still the process's action, restoring {@code previous}. */
    public static void uninstall(FatalAction installed, FatalAction previous) {
        synchronized (FatalErrors.class) {
            if (action == installed) {
                action = previous;
            }
        }
    }

    /** What the process does with a fatal error. */
    @FunctionalInterface
    public interface FatalAction {

        /**
         * Called on {@code thread}, which met {@code error} while {@code doing}. An action that ends the
         * process never returns; one that returns lets the caller throw the error.
         */
        void onFatal(Thread thread, String doing, Throwable error);
    }
}
