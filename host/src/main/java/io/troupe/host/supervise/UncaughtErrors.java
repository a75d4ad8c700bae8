package io.troupe.host.supervise;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The process's default uncaught exception handler while the host runs: it sees what ends any thread that
 * has no handler of its own, the framework's, FileInstall's, Jetty's and plugins' threads included. A fatal
 * error ({@link FatalErrors#isFatal}) goes to {@link FatalErrors#fatal}, which ends the process; anything else
 * goes to the handler that was the default before (if any), else it is logged with the thread's name.
 *
 * <p><b>Threading:</b> called by the JVM on the dying thread; immutable.
 */
final class UncaughtErrors implements Thread.UncaughtExceptionHandler {

    private static final Logger LOG = LoggerFactory.getLogger(UncaughtErrors.class);

    private final Thread.UncaughtExceptionHandler previous;

    /** @param previous the default handler this one replaces; null for none */
    UncaughtErrors(Thread.UncaughtExceptionHandler previous) {
        this.previous = previous;
    }

    Thread.UncaughtExceptionHandler previous() {
        return previous;
    }

    @Override
    public void uncaughtException(Thread thread, Throwable thrown) {
        if (FatalErrors.alreadyHandled(thrown)) {
            return; // the thread met it in a loop that handed it over already
        }
        if (FatalErrors.isFatal(thrown)) {
            FatalErrors.fatal("running (the error escaped the code it ran)", thrown);
            return;
        }
        if (previous != null) {
            previous.uncaughtException(thread, thrown);
        } else {
            LOG.error("Thread {} ended: {} escaped it", thread.getName(), thrown.toString(), thrown);
        }
    }
}
