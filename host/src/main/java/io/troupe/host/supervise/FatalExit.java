package io.troupe.host.supervise;

import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

import org.slf4j.Logger;

import io.troupe.api.log.Fatal;

/**
 * The host's {@link FatalErrors.FatalAction}: the first fatal error ends the process, at once and with
 * {@value #EXIT_STATUS} as its exit status, so that a supervisor (systemd, a container runtime) starts a
 * fresh one instead of leaving a JVM that lost an IO loop or its logger to an {@link OutOfMemoryError}.
 *
 * <pre>
 *   first fatal error ─► release the {@link HeapReserve} ─► wake the watchdog (halts after {@value
 *   #WRITE_BOUND_SECONDS} s whatever happens)
 *                    ─► "troupe: FATAL: ..." on stderr ─► one FATAL record, written and forced to
 *                       log/troupe.log before the call returns ({@link Fatal}) ─► Runtime.halt(70)
 *   any later one    ─► waits for the halt (it is part of the same end)
 * </pre>
 *
 * The halt skips shutdown hooks and the framework's stop on purpose: code that runs after a fatal error may
 * need the very memory or stack that is gone. Durable state survives it as it survives {@code kill -9}.
 *
 * <p>The watchdog thread is started in advance ({@link #start}), since a thread may not be startable once
 * the heap is exhausted; it only parks until it is needed.
 *
 * <p><b>Threading:</b> {@link #onFatal} from any thread, the first caller wins; {@link #start} and {@link
 * #close} from the thread that owns the process's supervision (the host's activator).
 */
public final class FatalExit implements FatalErrors.FatalAction {

    /** The process's exit status after a fatal error: EX_SOFTWARE of sysexits.h, "internal software error". */
    public static final int EXIT_STATUS = 70;
    /** How long the record may take to be written before the watchdog halts anyway. */
    public static final long WRITE_BOUND_SECONDS = 5;
    static final String WATCHDOG_NAME = "troupe-fatal-watchdog";

    private final Logger log;
    private final HeapReserve reserve;
    private final Supplier<PrintStream> stderr;
    private final IntConsumer halt;
    private final long writeBoundNanos;
    private final AtomicBoolean triggered = new AtomicBoolean();
    private final Thread watchdog;
    private volatile boolean closed;
    /** Set once {@link #halt} was called: what a later caller waits for. */
    private volatile boolean halted;

    /**
     * @param log    where the FATAL record goes
     * @param halt   ends the process with the status it is given ({@code Runtime.getRuntime()::halt})
     */
    public FatalExit(Logger log, HeapReserve reserve, Supplier<PrintStream> stderr, IntConsumer halt) {
        this(log, reserve, stderr, halt, Duration.ofSeconds(WRITE_BOUND_SECONDS));
    }

    FatalExit(Logger log, HeapReserve reserve, Supplier<PrintStream> stderr, IntConsumer halt, Duration writeBound) {
        this.log = log;
        this.reserve = reserve;
        this.stderr = stderr;
        this.halt = halt;
        this.writeBoundNanos = writeBound.toNanos();
        this.watchdog = new Thread(this::watch, WATCHDOG_NAME);
        watchdog.setDaemon(true);
        watchdog.setContextClassLoader(null); // pins no bundle's class loader
    }

    /** Starts the watchdog thread. */
    public void start() {
        watchdog.start();
    }

    /** Ends the watchdog, unless a fatal error is being handled (then the halt comes regardless). */
    public void close() {
        closed = true;
        if (!triggered.get()) {
            LockSupport.unpark(watchdog);
        }
    }

    /** Whether a fatal error was handed to this action. */
    public boolean triggered() {
        return triggered.get();
    }

    @Override
    public void onFatal(Thread thread, String doing, Throwable error) {
        if (!triggered.compareAndSet(false, true)) {
            awaitHalt(); // another thread ends the process already; this one's error is part of the same end
            return;
        }
        reserve.release();
        LockSupport.unpark(watchdog);
        String line = "FATAL: " + error + " on thread " + thread.getName() + " while " + doing
                + "; Troupe halts now with exit status " + EXIT_STATUS
                + " (a supervisor such as systemd starts it again)";
        try {
            PrintStream err = stderr.get();
            err.println("troupe: " + line);
            err.flush();
        } catch (Throwable ignored) {
            // stderr is gone: the log record below still says it
        }
        try {
            Fatal.fatal(log, "{}", line, error);
        } catch (Throwable ignored) {
            // nothing is left to report with: the exit status says it
        }
        halt(EXIT_STATUS);
    }

    private void halt(int status) {
        halted = true;
        if (Thread.currentThread() != watchdog) {
            LockSupport.unpark(watchdog); // its wait is over (only a test's halt returns to let it see that)
        }
        halt.accept(status);
    }

    /** Parks until the halt, or at most twice the write bound (only a test's halt returns). */
    private void awaitHalt() {
        long deadline = System.nanoTime() + 2 * writeBoundNanos;
        while (!halted && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(10));
        }
    }

    /** The watchdog: parks until a fatal error or {@link #close}; after a fatal error, halts once the bound passed. */
    private void watch() {
        while (!triggered.get()) {
            if (closed) {
                return;
            }
            LockSupport.park(this);
        }
        long deadline = System.nanoTime() + writeBoundNanos;
        long left;
        while (!halted && (left = deadline - System.nanoTime()) > 0) {
            LockSupport.parkNanos(this, left);
        }
        if (!halted) {
            halt(EXIT_STATUS); // the record could not be written in time (a stuck disk, a held lock)
        }
    }
}
