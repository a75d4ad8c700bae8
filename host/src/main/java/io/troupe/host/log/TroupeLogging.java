package io.troupe.host.log;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;
import org.slf4j.spi.MDCAdapter;

/**
 * The running logger of the host: callers format records and queue them, the {@code troupe-logger}
 * thread writes them out; and the handle through which the host activator starts and stops it.
 *
 * <p>{@link TroupeServiceProvider} creates the one instance when SLF4J binds, which starts the
 * logger thread right away, so bundles that log before the host activator runs are not lost. The
 * activator finds that instance through SLF4J instead of a static field of ours:
 *
 * <pre>{@code
 * // HostActivator.start(context), first statement:
 * logging = TroupeLogging.of(LoggerFactory.getILoggerFactory());
 * logging.start();   // no-op on the first start; reopens troupe.log after a stop without refresh
 *
 * // HostActivator.stop(context), last statement:
 * logging.stop();    // writes everything queued, then "Troupe logger stopped" as the last line
 * }</pre>
 *
 * A bundle stop and start without a refresh keeps the host's class loader, and with it SLF4J's
 * binding to this instance; that is why {@link #start()} exists. A refresh or update of the host
 * makes a new class loader, a new SLF4J binding and a new instance.
 *
 * <h2>Paths of a record</h2>
 * <ul>
 * <li>Ordinary: formatted to bytes on the caller's thread and copied into the {@link RecordQueue};
 *     no I/O and no lock on the caller's thread, see {@link RecordQueue} for the cap.</li>
 * <li>Fatal (ERROR with the {@code FATAL} marker, see {@link io.troupe.api.log.Fatal}): the caller
 *     takes the I/O lock, writes the queue out, writes its record, forces the file to disk and
 *     returns.</li>
 * <li>Without a log file (no {@code troupe.home}, as in unit tests, or a file that cannot be
 *     opened): written to stderr by the caller, under the I/O lock; no logger thread runs.</li>
 * <li>Stopped: written to stderr by the caller.</li>
 * </ul>
 *
 * <h2>The logger thread</h2>
 * {@code troupe-logger}, a daemon thread, parks until {@code flushIntervalMillis} passes or a
 * producer wakes it (see {@link RecordQueue}), then, holding the I/O lock: writes the queue to the
 * outputs, reports drops as one WARN line {@code N records dropped}, and every
 * {@code configPollMillis} re-reads {@code etc/io.troupe.log.cfg} if it changed. It may block on
 * I/O, so it is not a runtime thread ({@code io.troupe.host.dispatch.RuntimeThread}).
 *
 * <p>Threading: {@link #write} from any thread, concurrently with everything else.
 * {@link #start()}, {@link #stop()} and {@link #flush()} may be called from any thread; start and stop
 * are serialised with each other. The outputs are touched only under the I/O lock.
 */
public final class TroupeLogging {

    static final String THREAD_NAME = "troupe-logger";
    static final String STOPPED_LINE = "Troupe logger stopped";
    private static final String OWN_LOGGER_NAME = TroupeLogging.class.getName();
    private static final long JOIN_MILLIS = 5000;
    /** The initial size of a thread's record buffer: an ordinary line fits. */
    private static final int RECORD_BYTES = 512;

    private final Map<String, String> system;
    private final Clock clock;
    private final MDCAdapter mdc;
    private final boolean terminal;
    private final Supplier<PrintStream> stderr;
    private final LogLineFormat format;
    /**
     * Each producer thread's buffer for rendering its records. Threads of other bundles hold one of
     * these host objects until they end; it pins the host's class loader after a refresh of the host
     * no longer than the threads that logged through it live.
     */
    private final ThreadLocal<RecordBytes> recordBytes =
            ThreadLocal.withInitial(() -> new RecordBytes(RECORD_BYTES));
    private final RecordQueue queue;
    private final TroupeLoggerFactory loggers;
    private final LogConfigFile configFile;
    private final ReentrantLock ioLock = new ReentrantLock();
    private final Object lifecycle = new Object();

    private volatile LogSettings settings;
    private volatile RecordContext context = RecordContext.NONE;
    private volatile Path openFile;
    /** Guarded by {@link #ioLock}; null while stopped. */
    private Outputs outputs;
    /** Guarded by {@link #ioLock}. */
    private long reportedDrops;
    /** Guarded by {@link #ioLock}: warnings already written, so that an unchanged bad key warns once. */
    private Set<String> warned = Set.of();
    /**
     * Whether records are written on the caller's thread: when there is no log file (no
     * {@code troupe.home}, as in unit tests, or a file that cannot be opened) records go to stderr
     * directly and no logger thread runs.
     */
    private volatile boolean direct;
    /** Guarded by {@link #lifecycle}. */
    private boolean running;
    /** Guarded by {@link #lifecycle}; null while stopped or without a file. */
    private LoggerThread thread;
    /** Guarded by {@link #lifecycle}. */
    private Thread shutdownHook;

    /**
     * Reads the configuration, starts the logger thread and writes the configuration's warnings.
     *
     * @param system   the system properties to read {@code troupe.home} and {@code troupe.log.*} from
     * @param terminal whether Troupe runs in a terminal, for {@code console=auto}
     * @param stderr   where console output, records after stop and failure reports go
     */
    TroupeLogging(Map<String, String> system, Clock clock, MDCAdapter mdc, boolean terminal,
            Supplier<PrintStream> stderr) {
        this.system = Map.copyOf(system);
        this.clock = Objects.requireNonNull(clock, "clock");
        this.mdc = Objects.requireNonNull(mdc, "mdc");
        this.terminal = terminal;
        this.stderr = Objects.requireNonNull(stderr, "stderr");
        this.format = new LogLineFormat(clock.getZone());
        LogSettings first = LogSettings.parse(this.system);
        this.configFile = first.configFile().map(LogConfigFile::new).orElse(null);
        Set<String> problems = new HashSet<>();
        if (configFile != null) {
            Optional<Map<String, String>> entries = configFile.readIfChanged(problems::add);
            if (entries.isPresent()) {
                first = LogSettings.parse(this.system, entries.get(), null);
            }
        }
        this.settings = first;
        this.queue = new RecordQueue(first.bufferCapBytes(),
                TimeUnit.MILLISECONDS.toNanos(first.fullWaitMillis()));
        this.loggers = new TroupeLoggerFactory(this, first.thresholds());
        start();
        for (String problem : problems) {
            writeOwn(Level.WARN, problem, null);
        }
        warnOnce(first);
    }

    /**
     * The instance behind an SLF4J logger factory, normally
     * {@code TroupeLogging.of(LoggerFactory.getILoggerFactory())}.
     *
     * @throws IllegalStateException if SLF4J is bound to another provider, which in the framework
     *     means an slf4j-api bundle or another provider is visible where only the host should be
     */
    public static TroupeLogging of(ILoggerFactory factory) {
        if (factory instanceof TroupeLoggerFactory) {
            return ((TroupeLoggerFactory) factory).logging();
        }
        throw new IllegalStateException("SLF4J is bound to "
                + (factory == null ? "nothing" : factory.getClass().getName())
                + " instead of " + TroupeServiceProvider.class.getName()
                + " (loaded by " + LoggerFactory.class.getClassLoader() + ")");
    }

    /**
     * Opens the outputs and starts the logger thread if they are not running; idempotent. If the
     * log file cannot be opened, a WARN record says why and records go to the console only.
     */
    public void start() {
        synchronized (lifecycle) {
            if (running) {
                return;
            }
            running = true;
            IOException failure = null;
            ioLock.lock();
            try {
                LogSettings current = settings;
                RollingFile file = null;
                if (current.logFile().isPresent()) {
                    try {
                        file = RollingFile.open(current.logFile().get(), current.rollSizeBytes(),
                                current.retention(), new SinkFailureReport(stderr));
                    } catch (IOException e) {
                        failure = e;
                    }
                }
                outputs = new Outputs(file, new ConsoleOutput(stderr),
                        current.console().resolve(terminal, file != null));
                openFile = file == null ? null : file.file();
                direct = file == null;
                queue.reopen();
            } finally {
                ioLock.unlock();
            }
            if (!direct) {
                startLoggerThread();
            }
            if (failure != null) {
                writeOwn(Level.WARN, "Cannot open log file " + settings.logFile().orElseThrow()
                        + "; logging to the console only", failure);
            }
        }
    }

    private void startLoggerThread() {
        thread = new LoggerThread();
        queue.setWakeTarget(thread);
        thread.start();
        shutdownHook = new Thread(this::flush, THREAD_NAME + "-exit");
        try {
            Runtime.getRuntime().addShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            shutdownHook = null; // the JVM is exiting already
        }
    }

    /** Stops with the line {@value #STOPPED_LINE}. */
    public void stop() {
        stop(STOPPED_LINE);
    }

    /**
     * Writes everything queued, then {@code lastLine} as an INFO record, which is the last line of
     * the file; forces the file to disk, closes it and ends the logger thread. Records logged
     * afterwards go to stderr, until {@link #start()}. Idempotent.
     */
    public void stop(String lastLine) {
        synchronized (lifecycle) {
            if (!running) {
                return;
            }
            running = false;
            LoggerThread stopping = thread;
            if (stopping != null) {
                stopping.stopping = true;
                LockSupport.unpark(stopping);
            }
            ioLock.lock();
            try {
                queue.close(outputs);
                reportDrops();
                byte[] record = format(Level.INFO, OWN_LOGGER_NAME, lastLine, null);
                outputs.write(record, 0, record.length);
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
    }

    /**
     * Writes everything queued so far to the outputs on the calling thread (without forcing it to
     * disk); does nothing while stopped.
     */
    public void flush() {
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

    /** The file records are currently written to; empty when console-only or stopped. */
    public Optional<Path> logFile() {
        return Optional.ofNullable(openFile);
    }

    /**
     * Sets where the runtime's entries for each record come from (the actor and tenant of a turn),
     * merged with the caller's MDC entries; {@link RecordContext#NONE} to stop adding any.
     */
    public void setRecordContext(RecordContext context) {
        this.context = Objects.requireNonNull(context, "context");
    }

    /** Records dropped at the buffer cap since this logger was created. */
    public long droppedRecords() {
        return queue.dropped();
    }

    TroupeLoggerFactory loggerFactory() {
        return loggers;
    }

    MDCAdapter mdc() {
        return mdc;
    }

    LogSettings settings() {
        return settings;
    }

    /** For tests that hold the logger thread back. */
    ReentrantLock ioLock() {
        return ioLock;
    }

    /**
     * Renders one record ({@code loggerName} in UTF-8) on the calling thread into the thread's
     * {@link RecordBytes} and queues it, or writes it now if fatal; never throws. The throwable is
     * printed first, since that runs its own code, which may log: the thread's buffer is never in use
     * when that happens.
     */
    void write(Level level, byte[] loggerName, String message, Throwable thrown, boolean fatal) {
        String stackTrace = thrown == null ? null : LogLineFormat.stackTrace(thrown);
        RecordBytes record = recordBytes.get();
        record.clear();
        byte[] threadName = record.threadName.bytesOf(Thread.currentThread().getName());
        format.format(record, clock.millis(), level, threadName, loggerName, message, entries(), stackTrace);
        if (fatal || direct) {
            writeNow(record.array(), record.length(), fatal);
        } else if (queue.offer(record.array(), record.length()) == RecordQueue.Offer.CLOSED) {
            writeToStderr(record.array(), record.length());
        }
    }

    /** A record of the logger itself, in an array of its own; for the rare paths. */
    private byte[] format(Level level, String loggerName, String message, Throwable thrown) {
        return format.format(clock.millis(), level, Thread.currentThread().getName(), loggerName,
                message, entries(), thrown);
    }

    /** The record's entries: the runtime's for the calling thread, overridden by the caller's MDC. */
    private Map<String, String> entries() {
        Map<String, String> own = mdc.getCopyOfContextMap();
        Map<String, String> runtime;
        try {
            runtime = context.entries();
        } catch (RuntimeException e) {
            runtime = null; // a record must not fail for want of its context
        }
        if (runtime == null || runtime.isEmpty()) {
            return own;
        }
        if (own == null || own.isEmpty()) {
            return runtime;
        }
        Map<String, String> merged = new HashMap<>(runtime);
        merged.putAll(own);
        return merged;
    }

    /**
     * Writes the queue and then {@code record[0, length)} on the calling thread; with {@code force},
     * to disk.
     */
    private void writeNow(byte[] record, int length, boolean force) {
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

    private void writeToStderr(byte[] record, int length) {
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
    private void writeOwn(Level level, String message, Throwable thrown) {
        byte[] record = format(level, OWN_LOGGER_NAME, message, thrown);
        if (ioLock.isHeldByCurrentThread() && outputs != null) {
            outputs.write(record, 0, record.length);
        } else if (queue.offer(record, record.length) == RecordQueue.Offer.CLOSED) {
            writeToStderr(record, record.length);
        }
    }

    /** I/O lock holder only. */
    private void reportDrops() {
        long dropped = queue.dropped();
        if (dropped > reportedDrops) {
            writeOwn(Level.WARN, (dropped - reportedDrops) + " records dropped: more than "
                    + settings.bufferCapBytes() + " bytes (bufferCapBytes) were waiting to be written", null);
            reportedDrops = dropped;
        }
    }

    /** Writes the warnings of {@code next} that were not written for the settings before it. */
    private void warnOnce(LogSettings next) {
        Set<String> before = warned;
        warned = Set.copyOf(next.warnings());
        for (String warning : next.warnings()) {
            if (!before.contains(warning)) {
                writeOwn(Level.WARN, warning, null);
            }
        }
    }

    /** Logger thread, holding the I/O lock: applies the configuration file if it changed. */
    private void reloadIfChanged() {
        if (configFile == null) {
            return;
        }
        Optional<Map<String, String>> entries =
                configFile.readIfChanged(problem -> writeOwn(Level.WARN, problem, null));
        if (entries.isEmpty()) {
            return;
        }
        LogSettings next = LogSettings.parse(system, entries.get(), settings);
        settings = next;
        loggers.apply(next.thresholds());
        queue.setCap(next.bufferCapBytes());
        queue.setFullWaitNanos(TimeUnit.MILLISECONDS.toNanos(next.fullWaitMillis()));
        if (outputs != null) {
            outputs.file().ifPresent(f -> f.setLimits(next.rollSizeBytes(), next.retention()));
            outputs.setConsole(next.console().resolve(terminal, outputs.file().isPresent()));
        }
        writeOwn(Level.INFO, "Applied " + configFile.path(), null);
        warnOnce(next);
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
            // the JVM is exiting: the hook runs or ran, and flushing a stopped logger does nothing
        }
        shutdownHook = null;
    }

    /** {@code troupe-logger}: one per start; the flag tells it to end. */
    private final class LoggerThread extends Thread {

        volatile boolean stopping;

        LoggerThread() {
            super(THREAD_NAME);
            setDaemon(true);
            setContextClassLoader(null); // pins no bundle's class loader
        }

        @Override
        public void run() {
            long nextPoll = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(settings.configPollMillis());
            while (!stopping) {
                long now = System.nanoTime();
                long flushNanos = TimeUnit.MILLISECONDS.toNanos(settings.flushIntervalMillis());
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
                        reloadIfChanged();
                        nextPoll = System.nanoTime()
                                + TimeUnit.MILLISECONDS.toNanos(settings.configPollMillis());
                    }
                    outputs.flush(false);
                } catch (RuntimeException e) {
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
