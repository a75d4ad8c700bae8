package io.troupe.host.log;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;
import org.slf4j.spi.MDCAdapter;

/**
 * The running logging setup of the host: settings, clock, MDC and the current sink; and the handle
 * through which the host activator opens and closes the log file.
 *
 * <p>{@link TroupeServiceProvider} creates the one instance when SLF4J binds, which opens the file
 * sink right away, so bundles that log before the host activator runs are not lost. The activator
 * finds that instance through SLF4J instead of a static field of ours:
 *
 * <pre>{@code
 * // HostActivator.start(context), first statement:
 * logging = TroupeLogging.of(LoggerFactory.getILoggerFactory());
 * logging.start();   // no-op on the first start; reopens troupe.log after a stop without refresh
 *
 * // HostActivator.stop(context), last statement:
 * logging.stop();    // flushes and closes troupe.log; later records go to stderr only
 * }</pre>
 *
 * A bundle stop and start without a refresh keeps the host's class loader, and with it SLF4J's
 * binding to this instance; that is why {@link #start()} exists. A refresh or update of the host
 * makes a new class loader, a new SLF4J binding and a new instance.
 *
 * <p>Threading: {@link #write} is called by loggers on any thread, concurrently with everything
 * else. {@link #start()}, {@link #stop()} and {@link #flush()} may be called from any thread; start
 * and stop are serialised with each other and publish the new sink through a volatile field. A
 * record written while {@link #stop()} runs reaches the console and possibly not the file.
 */
public final class TroupeLogging {

    private static final String OWN_LOGGER_NAME = TroupeLogging.class.getName();

    private final LogSettings settings;
    private final Clock clock;
    private final LogSink console;
    private final MDCAdapter mdc;
    private final LogLineFormat format = new LogLineFormat();
    private final Object lifecycle = new Object();
    /** Guarded by {@link #lifecycle}; null while the file is closed or not configured. */
    private FileSink file;
    private volatile LogSink sink;

    /**
     * Opens the sinks the settings ask for and writes the settings' warnings, once each.
     *
     * @param console the sink every record goes to; in production a {@link ConsoleSink} on stderr
     */
    TroupeLogging(LogSettings settings, Clock clock, LogSink console, MDCAdapter mdc) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.console = Objects.requireNonNull(console, "console");
        this.mdc = Objects.requireNonNull(mdc, "mdc");
        this.sink = console;
        start();
        for (String warning : settings.warnings()) {
            write(Level.WARN, OWN_LOGGER_NAME, warning, null);
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
     * Opens the log file if {@code troupe.home} is set and it is not open yet; idempotent. If the
     * file cannot be opened, one WARN record on the console says why and logging stays console-only.
     */
    public void start() {
        synchronized (lifecycle) {
            Optional<Path> path = settings.logFile();
            if (file != null || path.isEmpty()) {
                return;
            }
            try {
                file = FileSink.open(path.get());
            } catch (IOException | RuntimeException e) {
                write(Level.WARN, OWN_LOGGER_NAME, "Cannot open log file " + path.get()
                        + "; logging to the console only", e);
                return;
            }
            sink = new FanOutSink(List.of(console, file));
        }
    }

    /** Flushes every sink. */
    public void flush() {
        sink.flush();
    }

    /**
     * Flushes the console, flushes and closes the log file; idempotent. Records written afterwards go
     * to the console only, until {@link #start()}.
     */
    public void stop() {
        synchronized (lifecycle) {
            sink = console;
            console.flush();
            if (file != null) {
                file.close();
                file = null;
            }
        }
    }

    /** The file records are currently appended to; empty when console-only or stopped. */
    public Optional<Path> logFile() {
        synchronized (lifecycle) {
            return file == null ? Optional.empty() : Optional.of(file.file());
        }
    }

    Level thresholdFor(String loggerName) {
        return settings.thresholds().thresholdFor(loggerName);
    }

    MDCAdapter mdc() {
        return mdc;
    }

    /** Formats one record on the calling thread and hands it to the current sink; never throws. */
    void write(Level level, String loggerName, String message, Throwable thrown) {
        String record = format.format(OffsetDateTime.now(clock), level,
                Thread.currentThread().getName(), loggerName, message, mdc.getCopyOfContextMap(),
                thrown);
        sink.append(record);
    }
}
