package io.troupe.host.log;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;
import org.slf4j.spi.MDCAdapter;

import io.troupe.host.supervise.FatalErrors;

/**
 * The running logger of the host: callers format records and queue them, the {@code troupe-logger}
 * thread writes them out; and the handle through which the host activator starts and stops it.
 *
 * <p>{@link TroupeServiceProvider} creates the one instance when SLF4J binds, which starts the
 * logger thread right away, so bundles that log before the host activator runs are not lost. The
 * activator and the runtime core find that instance through SLF4J instead of a static field of ours,
 * and hold a {@link LoggerUse} each while they run:
 *
 * <pre>{@code
 * // HostActivator.start(context), first statement:
 * logging = TroupeLogging.of(LoggerFactory.getILoggerFactory()).use();
 *                    // starts nothing on the first start; reopens troupe.log after a stop without refresh
 *
 * // HostActivator.stop(context), last statement:
 * logging.close();   // the last use: writes everything queued, then "Troupe logger stopped" as the last line
 * }</pre>
 *
 * An embedded runtime ({@code io.troupe.runtime.Troupe}) on a plain class path does the same through
 * {@link #bound()} when SLF4J is bound to this provider, and logs through the application's provider
 * otherwise.
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
 * <li>Without a log file (no {@code troupe.home}, as in unit tests): written to stderr by the caller,
 *     under the I/O lock; no logger thread runs. A log file that cannot be written (not opened at start,
 *     a full disk, its folder gone) takes the ordinary path; the logger thread puts what the file does
 *     not take on stderr and opens the file again once it can ({@link RollingFile}).</li>
 * <li>Stopped: written to stderr by the caller.</li>
 * </ul>
 *
 * <h2>Parts</h2>
 * <pre>
 *   TroupeLogging (this facade)  records: format on the caller's thread, queue; start, stop, flush
 *     ├── LogWriter              the outputs (rolling file, console) and the troupe-logger thread
 *     └── LogConfigWatch         the settings: system properties + etc/io.troupe.log.cfg, re-read
 *                                by the logger thread every configPollMillis
 * </pre>
 *
 * <p>Threading: {@link #write} from any thread, concurrently with everything else.
 * {@link #start()}, {@link #stop()} and {@link #flush()} may be called from any thread; start and stop
 * are serialised with each other. The outputs are touched only under the I/O lock ({@link LogWriter}).
 */
public final class TroupeLogging {

    static final String THREAD_NAME = LogWriter.THREAD_NAME;
    static final String STOPPED_LINE = "Troupe logger stopped";
    private static final String OWN_LOGGER_NAME = TroupeLogging.class.getName();
    /** The initial size of a thread's record buffer: an ordinary line fits. */
    private static final int RECORD_BYTES = 512;

    private final Clock clock;
    private final MDCAdapter mdc;
    private final RecordFormat text;
    private final RecordFormat json;
    /** The format in force ({@code format} of the settings): read once per record, replaced on a reload. */
    private volatile RecordFormat format;
    /**
     * Each producer thread's buffer for rendering its records. Threads of other bundles hold one of
     * these host objects until they end; it pins the host's class loader after a refresh of the host
     * no longer than the threads that logged through it live.
     */
    private final ThreadLocal<RecordBytes> recordBytes =
            ThreadLocal.withInitial(() -> new RecordBytes(RECORD_BYTES));
    private final RecordQueue queue;
    private final TroupeLoggerFactory loggers;
    private final LogConfigWatch config;
    private final LogWriter writer;
    private final Object lifecycle = new Object();

    private volatile RecordContext context = RecordContext.NONE;
    /** The record contexts of the open {@link LoggerUse}s; replaced under {@link #lifecycle}. */
    private volatile RecordContext[] useContexts = new RecordContext[0];
    /** Guarded by {@link #lifecycle}. */
    private boolean running;
    /** Open {@link LoggerUse}s; guarded by {@link #lifecycle}. */
    private int uses;

    /**
     * Reads the configuration, starts the logger thread and writes the configuration's warnings.
     *
     * @param system   the system properties to read {@code troupe.home} and {@code troupe.log.*} from
     * @param terminal whether Troupe runs in a terminal, for {@code console=auto}
     * @param stderr   where console output, records after stop and failure reports go
     */
    TroupeLogging(Map<String, String> system, Clock clock, MDCAdapter mdc, boolean terminal,
            Supplier<PrintStream> stderr) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.mdc = Objects.requireNonNull(mdc, "mdc");
        this.text = new LogLineFormat(clock.getZone());
        this.json = new JsonLineFormat(clock.getZone());
        List<String> problems = new ArrayList<>();
        this.config = new LogConfigWatch(system, problems::add);
        LogSettings first = config.settings();
        this.format = formatOf(first);
        this.queue = new RecordQueue(first.bufferCapBytes(), TimeUnit.MILLISECONDS.toNanos(first.fullWaitMillis()));
        this.loggers = new TroupeLoggerFactory(this, first.thresholds());
        this.writer = new LogWriter(queue, terminal, Objects.requireNonNull(stderr, "stderr"),
                (level, message, thrown) -> format(level, OWN_LOGGER_NAME, message, thrown), config::settings);
        start();
        for (String problem : problems) {
            writer.writeOwn(Level.WARN, problem, null);
        }
        for (String warning : config.newWarnings()) {
            writer.writeOwn(Level.WARN, warning, null);
        }
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
     * The instance SLF4J is bound to, if it is Troupe's provider; empty when the application brought
     * another provider (logback, ...), which Troupe then simply logs through.
     */
    public static Optional<TroupeLogging> bound() {
        ILoggerFactory factory = LoggerFactory.getILoggerFactory();
        return factory instanceof TroupeLoggerFactory troupe ? Optional.of(troupe.logging()) : Optional.empty();
    }

    /**
     * Opens a use of this logger (see {@link LoggerUse}): starts it if it is stopped; the last use to close
     * stops it.
     */
    public LoggerUse use() {
        synchronized (lifecycle) {
            uses++;
            start();
        }
        return new LoggerUse(this);
    }

    /** {@link LoggerUse#close()}. */
    void release(LoggerUse use) {
        synchronized (lifecycle) {
            if (!use.markClosed()) {
                return;
            }
            replaceContext(use.context(), null);
            if (--uses == 0) {
                stop();
            }
        }
    }

    /** Replaces {@code old} by {@code next} among the uses' record contexts; either may be null or none. */
    void replaceContext(RecordContext old, RecordContext next) {
        synchronized (lifecycle) {
            List<RecordContext> contexts = new ArrayList<>(List.of(useContexts));
            if (old != null) {
                contexts.remove(old);
            }
            if (next != null && next != RecordContext.NONE) {
                contexts.add(next);
            }
            useContexts = contexts.toArray(new RecordContext[0]);
        }
    }

    /**
     * Opens the outputs and starts the logger thread if they are not running; idempotent. If the
     * log file cannot be opened, a WARN record says why and records go to the console until it can be
     * (tried every second; once it works, a WARN record in it says how long it failed).
     */
    public void start() {
        synchronized (lifecycle) {
            if (running) {
                return;
            }
            running = true;
            IOException failure = writer.open(this::reloadIfChanged);
            if (failure != null) {
                writer.writeOwn(Level.WARN, "Cannot open log file " + config.settings().logFile().orElseThrow()
                        + "; records go to the console until it can be opened, which is tried every second",
                        failure);
            }
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
            writer.close(format(Level.INFO, OWN_LOGGER_NAME, lastLine, null));
        }
    }

    /**
     * Writes everything queued so far to the outputs on the calling thread (without forcing it to
     * disk); does nothing while stopped.
     */
    public void flush() {
        writer.flush();
    }

    /**
     * The file records are written to (or go to once it can be opened again); empty without one, or
     * stopped.
     */
    public Optional<Path> logFile() {
        return writer.file();
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

    /**
     * Bytes the record queue holds in memory now: the capacity of its segments not yet written, the
     * quantity {@link #bufferCapBytes()} bounds. Two atomic reads; any thread, as often as a metrics
     * scrape likes.
     */
    public long queuedBytes() {
        return queue.queuedBytes();
    }

    /** The cap on {@link #queuedBytes()} in force ({@code bufferCapBytes}), past which records are dropped. */
    public int bufferCapBytes() {
        return config.settings().bufferCapBytes();
    }

    TroupeLoggerFactory loggerFactory() {
        return loggers;
    }

    MDCAdapter mdc() {
        return mdc;
    }

    LogSettings settings() {
        return config.settings();
    }

    /** For tests that hold the logger thread back. */
    ReentrantLock ioLock() {
        return writer.ioLock();
    }

    /**
     * Renders one record ({@code loggerName} in UTF-8) on the calling thread into the thread's
     * {@link RecordBytes} and queues it, or writes it now if fatal; never throws. A record carrying a fatal
     * error ({@link FatalErrors#isFatal}) is handed to {@link FatalErrors#fatal} once written: the process ends
     * even when the code that met the error only logged it. The throwable is
     * printed first, since that runs its own code, which may log: the thread's buffer is never in use
     * when that happens.
     */
    void write(Level level, byte[] loggerName, String message, Throwable thrown, boolean fatal) {
        PrintedThrowable printed = thrown == null ? null : PrintedThrowable.of(thrown);
        RecordBytes record = recordBytes.get();
        record.clear();
        byte[] threadName = record.threadName.bytesOf(Thread.currentThread().getName());
        format.format(record, clock.millis(), level, threadName, loggerName, message, entries(), printed);
        if (fatal || writer.direct()) {
            writer.writeNow(record.array(), record.length(), fatal);
        } else if (queue.offer(record.array(), record.length()) == RecordQueue.Offer.CLOSED) {
            writer.writeToStderr(record.array(), record.length());
        }
        if (thrown != null && FatalErrors.isFatal(thrown)) {
            // Code that caught a fatal error and only logged it (a library's thread pool, a plugin): the
            // process-wide rule applies all the same. The fatal record of that rule comes back here: passed on.
            FatalErrors.fatal("logging it instead of ending the process (logger "
                    + new String(loggerName, StandardCharsets.UTF_8) + ")", thrown);
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
        Map<String, String> runtime = runtimeEntries();
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

    private RecordFormat formatOf(LogSettings settings) {
        return settings.format() == LogSettings.Format.JSON ? json : text;
    }

    /** The entries of the first record context that has some for the calling thread; null for none. */
    private Map<String, String> runtimeEntries() {
        try {
            Map<String, String> entries = context.entries();
            if (entries != null && !entries.isEmpty()) {
                return entries;
            }
            for (RecordContext use : useContexts) {
                entries = use.entries();
                if (entries != null && !entries.isEmpty()) {
                    return entries;
                }
            }
            return null;
        } catch (RuntimeException e) {
            return null; // a record must not fail for want of its context
        }
    }

    /** Logger thread, holding the I/O lock: applies the configuration file if it changed. */
    private void reloadIfChanged() {
        Optional<LogSettings> changed = config.poll(problem -> writer.writeOwn(Level.WARN, problem, null));
        if (changed.isEmpty()) {
            return;
        }
        LogSettings next = changed.get();
        loggers.apply(next.thresholds());
        queue.setCap(next.bufferCapBytes());
        queue.setFullWaitNanos(TimeUnit.MILLISECONDS.toNanos(next.fullWaitMillis()));
        writer.apply(next);
        format = formatOf(next);
        writer.writeOwn(Level.INFO, "Applied " + config.path().orElseThrow(), null);
        for (String warning : config.newWarnings()) {
            writer.writeOwn(Level.WARN, warning, null);
        }
    }
}
