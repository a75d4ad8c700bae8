package io.troupe.host.supervise;

import java.io.PrintStream;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fatal-error policy of a Troupe process, in force from {@link #open} to {@link #close}: a {@link
 * HeapReserve}, {@link FatalExit} as the process's {@link FatalErrors.FatalAction}, and {@link UncaughtErrors}
 * as the default uncaught exception handler. The host's activator opens it first thing and closes it last;
 * closing restores the action and the handler that were there before.
 *
 * <p><b>Threading:</b> {@link #open} and {@link #close} from one controlling thread (the framework's, which
 * starts and stops the host bundle); what they install works on every thread.
 */
public final class ProcessSupervision implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ProcessSupervision.class);

    private final HeapReserve reserve;
    private final FatalExit exit;
    private final FatalErrors.FatalAction previousAction;
    private final UncaughtErrors handler;

    private ProcessSupervision(HeapReserve reserve, FatalExit exit) {
        this.reserve = reserve;
        this.exit = exit;
        exit.start();
        this.previousAction = FatalErrors.install(exit);
        this.handler = new UncaughtErrors(Thread.getDefaultUncaughtExceptionHandler());
        Thread.setDefaultUncaughtExceptionHandler(handler);
    }

    /** Installs the policy for this JVM: a fatal error halts it with {@link FatalExit#EXIT_STATUS}. */
    public static ProcessSupervision open() {
        Runtime runtime = Runtime.getRuntime();
        ProcessSupervision supervision = open(HeapReserve.forThisJvm(), () -> System.err, runtime::halt);
        LOG.info("Fatal errors (OutOfMemoryError, StackOverflowError, InternalError, UnknownError) on any thread"
                + " halt the process with exit status {} after one FATAL record; {} KiB of heap are held in reserve"
                + " to write it", FatalExit.EXIT_STATUS, supervision.reserve.held() >> 10);
        return supervision;
    }

    /** Installs the policy with the given parts; {@code halt} ends the process (a test's records the status). */
    static ProcessSupervision open(HeapReserve reserve, Supplier<PrintStream> stderr, IntConsumer halt) {
        return new ProcessSupervision(reserve,
                new FatalExit(LoggerFactory.getLogger(FatalExit.class), reserve, stderr, halt));
    }

    /** The action installed: for tests that ask whether it was triggered. */
    FatalExit exit() {
        return exit;
    }

    /** Restores the action and the default handler found at {@link #open}, unless others replaced them since. */
    @Override
    public void close() {
        FatalErrors.uninstall(exit, previousAction);
        if (Thread.getDefaultUncaughtExceptionHandler() == handler) {
            Thread.setDefaultUncaughtExceptionHandler(handler.previous());
        }
        exit.close();
        reserve.release();
    }
}
