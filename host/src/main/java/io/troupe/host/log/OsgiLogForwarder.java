package io.troupe.host.log;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceReference;
import org.osgi.service.log.LogEntry;
import org.osgi.service.log.LogListener;
import org.osgi.service.log.LogReaderService;
import org.osgi.util.tracker.ServiceTracker;
import org.slf4j.ILoggerFactory;
import org.slf4j.Logger;

/**
 * Brings the OSGi Log Service into the host's log: the entries of every {@link LogReaderService}
 * (the framework's own events, Declarative Services, FileInstall, any bundle logging through
 * {@code org.osgi.service.log}) are written through the host's SLF4J loggers, so they reach
 * {@code log/troupe.log} beside everything else, at the same levels and under the same filters of
 * {@code etc/io.troupe.log.cfg}.
 *
 * <pre>
 *  framework events, SCR, FileInstall, bundles ──► LogService (org.apache.felix.log)
 *                                                       │ its delivery thread, in order
 *                                                       ▼
 *                            OsgiLogForwarder.logged(entry) ──► SLF4J logger ──► troupe.log
 * </pre>
 *
 * <p>A record is named after the entry's logger, or after its bundle's symbolic name when the
 * logger's name says nothing (the legacy {@code LogService} methods, SCR's {@code ROOT}); so
 * {@code level.com.example = DEBUG} in {@code etc/io.troupe.log.cfg} reaches the records of
 * {@code com.example} classes. The framework's events go to {@code osgi.events.bundle},
 * {@code osgi.events.service} and {@code osgi.events.framework}, as {@code bundle: [service
 * interfaces] event}: errors and warnings at their level, everything else (every bundle and service
 * change) at DEBUG, so {@code level.osgi.events = DEBUG} shows them. AUDIT entries are written at
 * INFO.
 *
 * <p>When a log service appears, the entries it kept from before (logged before the host started)
 * are written first, oldest first; entries delivered meanwhile wait for them, so none is written
 * twice or out of order. (After the host bundle alone is restarted, what the log service still keeps,
 * at most its last 100 entries by default, is written a second time.)
 *
 * <p>The host's own records never go to the log service, so nothing loops.
 *
 * <p><b>Threading:</b> {@link #open} and {@link #close} by the host activator; the tracker's
 * callbacks on framework threads; {@link #logged} on each log service's delivery thread. The
 * hand-over from the history to delivered entries is guarded by {@code this}; nothing here is a
 * runtime thread, and writing a record never blocks past the logger's cap wait.
 */
public final class OsgiLogForwarder implements LogListener {

    /** The package this class needs; the host imports it optionally. */
    public static final String PACKAGE = "org.osgi.service.log";

    /** The prefix of the SLF4J loggers of the framework's events, logged below WARN at DEBUG. */
    public static final String EVENTS_PREFIX = "osgi.events.";

    /** Logger names that say nothing of where an entry comes from. */
    private static final Set<String> GENERIC_LOGGERS = Set.of("LogService", "ROOT");
    private static final String EVENTS_LOGGER = "Events.";

    private final ILoggerFactory loggers;
    /** Set once by {@link #open}; null for a forwarder attached by hand. */
    private ServiceTracker<LogReaderService, LogReaderService> tracker;
    /** Serialises the attachment of log services that appear at the same time. */
    private final Object attaching = new Object();
    /** Entries delivered while a service's earlier entries are being written, else null; guarded by this. */
    private List<LogEntry> held;

    /** A forwarder to be attached by hand; {@link #open} tracks the services itself. */
    OsgiLogForwarder(ILoggerFactory loggers) {
        this.loggers = loggers;
    }

    /** Starts forwarding from every log reader service there is or will be. */
    public static OsgiLogForwarder open(BundleContext context, ILoggerFactory loggers) {
        OsgiLogForwarder forwarder = new OsgiLogForwarder(loggers);
        forwarder.tracker = new ServiceTracker<>(context, LogReaderService.class, null) {
            @Override
            public LogReaderService addingService(ServiceReference<LogReaderService> reference) {
                LogReaderService reader = super.addingService(reference);
                if (reader != null) {
                    forwarder.attach(reader);
                }
                return reader;
            }

            @Override
            public void removedService(ServiceReference<LogReaderService> reference, LogReaderService reader) {
                reader.removeLogListener(forwarder);
                super.removedService(reference, reader);
            }
        };
        forwarder.tracker.open();
        return forwarder;
    }

    /** Stops forwarding; entries logged afterwards stay with the log service. */
    public void close() {
        if (tracker != null) {
            tracker.close();
        }
    }

    @Override
    public void logged(LogEntry entry) {
        synchronized (this) {
            if (held != null) {
                held.add(entry);
                return;
            }
        }
        write(entry);
    }

    /**
     * Listens to {@code reader}, writing what it kept from before first: entries delivered meanwhile
     * are held, then written after the history, skipping any the history held too. The delivery
     * thread waits on {@code this} until the held entries are written, so order is kept.
     */
    void attach(LogReaderService reader) {
        synchronized (attaching) {
            synchronized (this) {
                held = new ArrayList<>();
            }
            long upTo = Long.MIN_VALUE;
            try {
                reader.addLogListener(this);
                List<LogEntry> earlier = Collections.list(reader.getLog()); // newest first
                Collections.reverse(earlier);
                for (LogEntry entry : earlier) {
                    write(entry);
                    upTo = Math.max(upTo, entry.getSequence());
                }
            } finally {
                synchronized (this) {
                    for (LogEntry entry : held) {
                        if (entry.getSequence() > upTo) {
                            write(entry);
                        }
                    }
                    held = null;
                }
            }
        }
    }

    private void write(LogEntry entry) {
        String source = entry.getLoggerName();
        boolean event = source != null && source.startsWith(EVENTS_LOGGER);
        Logger logger = loggers.getLogger(event ? eventLoggerName(source) : loggerName(entry));
        String message = event ? describeEvent(entry) : String.valueOf(entry.getMessage());
        Throwable thrown = entry.getException();
        switch (entry.getLogLevel()) {
            case ERROR -> logger.error(message, thrown);
            case WARN -> logger.warn(message, thrown);
            case INFO, AUDIT -> {
                if (event) {
                    logger.debug(message, thrown); // every bundle and service change: too many for INFO
                } else {
                    logger.info(message, thrown);
                }
            }
            case DEBUG -> logger.debug(message, thrown);
            case TRACE -> logger.trace(message, thrown);
        }
    }

    /**
     * The entry's own logger, or its bundle's symbolic name when the logger says nothing of its
     * origin (the legacy {@code LogService} methods, SCR's {@code ROOT}).
     */
    static String loggerName(LogEntry entry) {
        String name = entry.getLoggerName();
        if (name != null && !name.isEmpty() && !GENERIC_LOGGERS.contains(name)) {
            return name;
        }
        return symbolicName(entry);
    }

    /** {@code Events.Bundle} becomes {@code osgi.events.bundle}, and so on. */
    static String eventLoggerName(String source) {
        return EVENTS_PREFIX + source.substring(EVENTS_LOGGER.length()).toLowerCase(Locale.ROOT);
    }

    /** The event's bundle, the service's interfaces for a service event, and the log service's text. */
    private static String describeEvent(LogEntry entry) {
        StringBuilder text = new StringBuilder(symbolicName(entry)).append(": ");
        ServiceReference<?> service = entry.getServiceReference();
        Object classes = service == null ? null : service.getProperty(Constants.OBJECTCLASS);
        if (classes instanceof String[] names) {
            text.append(Arrays.toString(names)).append(' ');
        }
        return text.append(entry.getMessage()).toString();
    }

    private static String symbolicName(LogEntry entry) {
        Bundle bundle = entry.getBundle();
        String name = bundle == null ? null : bundle.getSymbolicName();
        return name != null ? name : "osgi";
    }
}
