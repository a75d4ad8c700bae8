package io.troupe.host.log;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import org.junit.jupiter.api.Test;
import org.osgi.framework.Bundle;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceReference;
import org.osgi.service.log.LogEntry;
import org.osgi.service.log.LogLevel;
import org.osgi.service.log.LogListener;
import org.osgi.service.log.LogReaderService;
import org.slf4j.ILoggerFactory;
import org.slf4j.Logger;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;

/**
 * Entries of the OSGi log service as the host's records: names, levels, the framework's events, and
 * the hand-over from a service's history to its live entries. The log service is an in-memory double
 * that delivers on the test thread; the framework test in the itests covers the real one.
 *
 * <p><b>Threading:</b> the test thread only.
 */
class OsgiLogForwarderTest {

    private final List<String> written = new ArrayList<>();
    private final RecordingLoggers loggers = new RecordingLoggers(written);
    private final OsgiLogForwarder forwarder = new OsgiLogForwarder(loggers);

    @Test
    void namesARecordAfterTheEntrysLoggerOrItsBundleWhenTheLoggerSaysNothing() {
        FakeReader reader = new FakeReader();
        forwarder.attach(reader);

        reader.deliver(entry(1, "com.example.Missing", LogLevel.ERROR, "com.example.plugin", "could not load"));
        reader.deliver(entry(2, "LogService", LogLevel.WARN, "org.apache.felix.fileinstall", "bad file"));
        reader.deliver(entry(3, "ROOT", LogLevel.INFO, "com.example.plugin", "component enabled"));
        reader.deliver(entry(4, "audit.trail", LogLevel.AUDIT, "com.example.plugin", "granted"));
        reader.deliver(entry(5, "chatty", LogLevel.DEBUG, "com.example.plugin", "details"));

        assertEquals(List.of(
                "ERROR com.example.Missing could not load",
                "WARN org.apache.felix.fileinstall bad file",
                "INFO com.example.plugin component enabled",
                "INFO audit.trail granted",
                "DEBUG chatty details"), written);
    }

    @Test
    void theFrameworksEventsGoToOsgiEventsLoggersAndOnlyTheirProblemsAboveDebug() {
        FakeReader reader = new FakeReader();
        forwarder.attach(reader);

        reader.deliver(entry(1, "Events.Bundle", LogLevel.INFO, "com.example.plugin", "BundleEvent STARTED"));
        LogEntry registered = new TestEntry(2, "Events.Service", LogLevel.INFO, bundle("com.example.plugin"),
                "ServiceEvent REGISTERED", service("io.troupe.api.ActorFactory"));
        reader.deliver(registered);
        reader.deliver(entry(3, "Events.Framework", LogLevel.ERROR, "com.example.plugin", "FrameworkEvent ERROR"));

        assertEquals(List.of(
                "DEBUG osgi.events.bundle com.example.plugin: BundleEvent STARTED",
                "DEBUG osgi.events.service com.example.plugin: [io.troupe.api.ActorFactory] ServiceEvent REGISTERED",
                "ERROR osgi.events.framework com.example.plugin: FrameworkEvent ERROR"), written);
    }

    @Test
    void theHistoryIsWrittenOldestFirstThenWhatArrivedMeanwhileOnceEach() {
        FakeReader reader = new FakeReader();
        reader.history.add(entry(1, "a", LogLevel.WARN, "b", "first"));
        reader.history.add(entry(2, "a", LogLevel.WARN, "b", "second"));
        // delivered while the history is read: one the history holds too, one it does not
        reader.duringGetLog.add(entry(2, "a", LogLevel.WARN, "b", "second"));
        reader.duringGetLog.add(entry(3, "a", LogLevel.WARN, "b", "third"));

        forwarder.attach(reader);
        reader.deliver(entry(4, "a", LogLevel.WARN, "b", "fourth"));

        assertEquals(List.of("WARN a first", "WARN a second", "WARN a third", "WARN a fourth"), written);
    }

    private static LogEntry entry(long sequence, String logger, LogLevel level, String bundle, String message) {
        return new TestEntry(sequence, logger, level, bundle(bundle), message, null);
    }

    private static Bundle bundle(String symbolicName) {
        return (Bundle) Proxy.newProxyInstance(Bundle.class.getClassLoader(), new Class<?>[] {Bundle.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getSymbolicName" -> symbolicName;
                    case "toString" -> symbolicName;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    private static ServiceReference<?> service(String objectClass) {
        return (ServiceReference<?>) Proxy.newProxyInstance(ServiceReference.class.getClassLoader(),
                new Class<?>[] {ServiceReference.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("getProperty") && Constants.OBJECTCLASS.equals(args[0])) {
                        return new String[] {objectClass};
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    /** A log entry with what the forwarder reads. */
    private record TestEntry(long sequence, String logger, LogLevel level, Bundle bundle, String message,
                             ServiceReference<?> service) implements LogEntry {
        @Override public Bundle getBundle() { return bundle; }
        @Override public ServiceReference<?> getServiceReference() { return service; }
        @SuppressWarnings("deprecation")
        @Override public int getLevel() { return level.ordinal(); }
        @Override public String getMessage() { return message; }
        @Override public Throwable getException() { return null; }
        @Override public long getTime() { return 0; }
        @Override public LogLevel getLogLevel() { return level; }
        @Override public String getLoggerName() { return logger; }
        @Override public long getSequence() { return sequence; }
        @Override public String getThreadInfo() { return "test"; }
        @Override public StackTraceElement getLocation() { return null; }
    }

    /** A log reader that delivers on the caller's thread; some entries arrive while getLog runs. */
    private static final class FakeReader implements LogReaderService {
        final List<LogEntry> history = new ArrayList<>();
        final List<LogEntry> duringGetLog = new ArrayList<>();
        final List<LogListener> listeners = new ArrayList<>();

        void deliver(LogEntry entry) {
            listeners.forEach(listener -> listener.logged(entry));
        }

        @Override public void addLogListener(LogListener listener) { listeners.add(listener); }
        @Override public void removeLogListener(LogListener listener) { listeners.remove(listener); }

        @Override
        public Enumeration<LogEntry> getLog() {
            duringGetLog.forEach(this::deliver);
            List<LogEntry> newestFirst = new ArrayList<>(history);
            Collections.reverse(newestFirst);
            return Collections.enumeration(newestFirst);
        }
    }

    /** Loggers that note "LEVEL name message" for every record. */
    private static final class RecordingLoggers implements ILoggerFactory {
        private final List<String> written;
        private final ConcurrentMap<String, Logger> byName = new ConcurrentHashMap<>();

        RecordingLoggers(List<String> written) {
            this.written = written;
        }

        @Override
        public Logger getLogger(String name) {
            return byName.computeIfAbsent(name, Recording::new);
        }

        private final class Recording extends LegacyAbstractLogger {
            private static final long serialVersionUID = 1L;

            Recording(String name) {
                this.name = name;
            }

            @Override public boolean isTraceEnabled() { return true; }
            @Override public boolean isDebugEnabled() { return true; }
            @Override public boolean isInfoEnabled() { return true; }
            @Override public boolean isWarnEnabled() { return true; }
            @Override public boolean isErrorEnabled() { return true; }
            @Override protected String getFullyQualifiedCallerName() { return null; }

            @Override
            protected void handleNormalizedLoggingCall(Level level, Marker marker, String pattern, Object[] arguments,
                    Throwable throwable) {
                written.add(level + " " + name + " " + pattern);
            }
        }
    }
}
