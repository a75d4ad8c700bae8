package io.troupe.host.log;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.slf4j.event.Level;

import io.troupe.host.supervise.FatalErrors;

/**
 * The logger's outputs (the rolling file and the console) and the {@code troupe-logger} thread that
 * writes the {@link RecordQueue} to them: one of the three parts of the logger, beside the facade
 * {@link TroupeLogging} and the configuration watch {@link LogConfigWatch}.
 *
 * <h2>The logger thread</h2>
 * {@code troupe-logger}, a daemon thread, parks until {@code flushIntervalMillis} passes or a
 * producer wakes it (see {@link RecordQueue}), then, holding the I/O lock: writes the queue to the
 * outputs, reports drops as one WARN line {@code N records dropped}, and every
 * {@code configPollMillis} runs the configuration poll it was given. It may block on I/O, so it is
 * not a runtime thread ({@code io.troupe.host.dispatch.RuntimeThread}).
 *
 * <p>Without a log file (no {@code troupe.home}, as in unit tests) records are written on the caller's
 * thread to stderr, under the I/O lock ({@link #direct()}), and no logger thread runs. A log file that
 * cannot be opened is tried again every second by the logger thread ({@link RollingFile#unopened}); its
 * records go to stderr meanwhile.
 *
 * <p><b>Threading:</b> the outputs and the drop count are touched only under the I/O lock; any thread
 * may take it (the logger thread, a caller writing a fatal record, {@link #flush}). {@link #open} and
 * {@link #close} are called by the facade, serialised by its lifecycle lock.
 */
final class LogWriter {

    /** Formats a record of the logger itself. */
    @FunctionalInterface
    interface OwnRecords {
        byte[] format(Level level, String message, Throwable thrown);
    }

    static final String THREAD_NAME = "troupe-logger";
    private static final long JOIN_MILLIS = 5000;

    private final RecordQueue queue;
    private final boolean terminal;
    private final Supplier<PrintStream> stderr;
    private final OwnRecords own;
    private final Supplier<LogSettings> settings;
    private final ReentrantLock ioLock = new ReentrantLock();

    private volatile Path openFile;
    /** Whether records are written on the caller's thread (no log file, no logger thread). */
    private volatile boolean direct;
    /** Guarded by {@link #ioLock}; null while closed. */
    private Outputs outputs;
    /** Guarded by {@link #ioLock}. */
    private long reportedDrops;
    /** Open and close only; null while closed or without a file. */
    private LoggerThread thread;
    /** Open and close only. */
    private Thread shutdownHook;

    /**
     * @param settings the settings in force, read for the flush and poll periods, the file's limits
     *                 and the cap named in drop reports
     */
    LogWriter(RecordQueue queue, boolean terminal, Supplier<PrintStream> stderr, OwnRecords own,
            Supplier<LogSettings> settings) {
        this.queue = queue;
        this.terminal = terminal;
        this.stderr = stderr;
        this.own = own;
        this.settings = settings;
    }

    /**
     * Opens the outputs as the current settings say and, with a file, starts the logger thread, which
     * runs {@code poll} under the I/O lock every {@code configPollMillis}.
     *
     * @return why the log file could not be opened (then records go to the console until it can be, which
     *     is tried every second), or null
     */
    IOException open(Runnable poll) {
        IOException failure = null;
        ioLock.lock();
        try {
            LogSettings current = settings.get();
            RollingFile file = null;
            if (current.logFile().isPresent()) {
                try {
                    file = RollingFile.open(current.logFile().get(), current.rollSizeBytes(), current.retention(),
                            stderr);
                } catch (IOException e) {
                    failure = e;
                    file = RollingFile.unopened(current.logFile().get(), current.rollSizeBytes(),
                            current.retention(), stderr, System::nanoTime, e);
                }
            }
            outputs = new Outputs(file, new ConsoleOutput(stderr), current.console().resolve(terminal, file != null),
                    own);
            openFile = file == null ? null : file.file();
            direct = file == null;
            queue.reopen();
        } finally {
            ioLock.unlock();
        }
        if (!direct) {
            startThread(poll);
        }
        return failure;
    }

    private void startThread(Runnable poll) {
        thread = new LoggerThread(poll);
        queue.setWakeTarget(thread);
        thread.start();
        shutdownHook = new Thread(this::flush, THREAD_NAME + "-exit");
        try {
            Runtime.getRuntime().addShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            shutdownHook = null; // the JVM is exiting already
        }
    }

    /**
     * Writes everything queued, then {@code lastRecord}, which is the last line of the file; forces
     * the file to disk, closes it and ends the logger thread. Records written afterwards go to
     * stderr, until {@link #open}.
     */
    void close(byte[] lastRecord) {
        LoggerThread stopping = thread;
        if (stopping != null) {
            stopping.stopping = true;
            LockSupport.unpark(stopping);
        }
        ioLock.lock();
        try {
            queue.close(outputs);
            reportDrops();
            outputs.write(lastRecord, 0, lastRecord.length);
            outputs.flush(true);
            outputs.close();
            outputs = null;
            openFile = null;
        } finally {
            ioLock.unlock();
        }
        queue.setWakeTarget(null);
        thread = null;
        if (stopping != null) {
            joinQuietly(stopping);
        }
        removeShutdownHook();
    }

    /** Writes everything queued so far (without forcing it to disk); does nothing while closed. */
    void flush() {
        ioLock.lock();
        try {
            if (outputs != null) {
                queue.drain(outputs);
                reportDrops();
                outputs.flush(false);
            }
        } finally {
            ioLock.unlock();
        }
    }

    /** Whether records are written on the caller's thread: no log file, no logger thread. */
    boolean direct() {
        return direct;
    }

    /** The file records are written to (or go to once it can be opened); empty without one, or closed. */
    Optional<Path> file() {
        return Optional.ofNullable(openFile);
    }

    ReentrantLock ioLock() {
        return ioLock;
    }

    /**
     * Writes the queue and then {@code record[0, length)} on the calling thread; with {@code force},
     * to disk.
     */
    void writeNow(byte[] record, int length, boolean force) {
        ioLock.lock();
        try {
            if (outputs == null) {
                writeToStderr(record, length);
                return;
            }
            queue.drain(outputs);
            reportDrops();
            outputs.write(record, 0, length);
            outputs.flush(force);
        } finally {
            ioLock.unlock();
        }
    }

    void writeToStderr(byte[] record, int length) {
        try {
            PrintStream err = stderr.get();
            err.write(record, 0, length);
            err.flush();
        } catch (RuntimeException e) {
            // stderr itself is broken: there is nowhere left to write to.
        }
    }

    /**
     * A record of the logger itself: written directly by the holder of the I/O lock (the logger
     * thread never queues, so it never waits for itself at the cap), queued by anyone else.
     */
    void writeOwn(Level level, String message, Throwable thrown) {
        byte[] record = own.format(level, message, thrown);
        if (ioLock.isHeldByCurrentThread() && outputs != null) {
            outputs.write(record, 0, record.length);
        } else if (queue.offer(record, record.length) == RecordQueue.Offer.CLOSED) {
            writeToStderr(record, record.length);
        }
    }

    /** I/O lock holder only: the file's limits and the console of {@code next}. */
    void apply(LogSettings next) {
        if (outputs != null) {
            outputs.file().ifPresent(f -> f.setLimits(next.rollSizeBytes(), next.retention()));
            outputs.setConsole(next.console().resolve(terminal, outputs.file().isPresent()));
        }
    }

    /** I/O lock holder only. */
    private void reportDrops() {
        long dropped = queue.dropped();
        if (dropped > reportedDrops) {
            writeOwn(Level.WARN, (dropped - reportedDrops) + " records dropped: more than "
                    + settings.get().bufferCapBytes() + " bytes (bufferCapBytes) were waiting to be written", null);
            reportedDrops = dropped;
        }
    }

    private void joinQuietly(Thread stopped) {
        if (stopped == Thread.currentThread()) {
            return;
        }
        try {
            stopped.join(JOIN_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void removeShutdownHook() {
        if (shutdownHook == null) {
            return;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // the JVM is exiting: the hook runs or ran, and flushing a closed writer does nothing
        }
        shutdownHook = null;
    }

    /** {@code troupe-logger}: one per open; the flag tells it to end. */
    private final class LoggerThread extends Thread {

        private final Runnable poll;
        volatile boolean stopping;

        LoggerThread(Runnable poll) {
            super(THREAD_NAME);
            this.poll = poll;
            setDaemon(true);
            setContextClassLoader(null); // pins no bundle's class loader
        }

        @Override
        public void run() {
            long nextPoll = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(settings.get().configPollMillis());
            while (!stopping) {
                long now = System.nanoTime();
                long flushNanos = TimeUnit.MILLISECONDS.toNanos(settings.get().flushIntervalMillis());
                LockSupport.parkNanos(this, Math.max(0, Math.min(flushNanos, nextPoll - now)));
                if (stopping) {
                    return;
                }
                ioLock.lock();
                try {
                    if (outputs == null) {
                        return;
                    }
                    queue.drain(outputs);
                    reportDrops();
                    if (System.nanoTime() - nextPoll >= 0) {
                        poll.run();
                        nextPoll = System.nanoTime()
                                + TimeUnit.MILLISECONDS.toNanos(settings.get().configPollMillis());
                    }
                    outputs.flush(false);
                } catch (Throwable e) {
                    if (FatalErrors.isFatal(e)) {
                        throw FatalErrors.fatal("writing the log", e); // ends the process
                    }
                    // A bug of ours; going on keeps the queue moving, dying would fill it up.
                    byte[] report = ("troupe-log: the logger thread failed and goes on: " + e
                            + System.lineSeparator()).getBytes(StandardCharsets.UTF_8);
                    writeToStderr(report, report.length);
                } finally {
                    ioLock.unlock();
                }
            }
        }
    }
}
