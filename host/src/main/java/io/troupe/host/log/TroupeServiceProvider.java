package io.troupe.host.log;

import java.time.Clock;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.helpers.BasicMDCAdapter;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * The SLF4J 2.x provider of the host, found by {@code ServiceLoader} through
 * {@code META-INF/services/org.slf4j.spi.SLF4JServiceProvider}: inside the framework only within the
 * host bundle, which embeds slf4j-api and exports it to every bundle (as 2.0 and as 1.7); in unit
 * tests on the class path.
 *
 * <p>{@link #initialize()} reads the system properties (see {@link LogSettings}) and starts the
 * logger; without {@code troupe.home}, as in unit tests, records go to stderr only.
 *
 * <p>It may also be used without SLF4J's {@code LoggerFactory}, as the benchmarks do: create it,
 * call {@link #initialize()} and use {@link #getLoggerFactory()}.
 *
 * <p>Threading: SLF4J instantiates the provider and calls {@link #initialize()} once, under its own
 * lock, before any getter; the getters then run on any thread. The fields are volatile so that
 * visibility does not depend on how SLF4J publishes the provider.
 */
public final class TroupeServiceProvider implements SLF4JServiceProvider {

    /** The slf4j-api version the host embeds; SLF4J checks only the "2.0" prefix. */
    static final String REQUESTED_API_VERSION = "2.0.20";
    /** Set by the launcher: {@code tty} when Troupe runs in a terminal, {@code script} when not. */
    static final String CONSOLE_MODE_PROPERTY = "troupe.console";

    private volatile TroupeLoggerFactory loggerFactory;
    private volatile IMarkerFactory markerFactory;
    private volatile MDCAdapter mdcAdapter;

    /** Called by {@code ServiceLoader}; does no work until {@link #initialize()}. */
    public TroupeServiceProvider() {
    }

    @Override
    public void initialize() {
        Map<String, String> system = systemProperties();
        TroupeLogging logging = new TroupeLogging(system, Clock.systemDefaultZone(),
                new BasicMDCAdapter(), runsInTerminal(system), () -> System.err);
        markerFactory = new BasicMarkerFactory();
        mdcAdapter = logging.mdc();
        loggerFactory = logging.loggerFactory();
    }

    @Override
    public ILoggerFactory getLoggerFactory() {
        return loggerFactory;
    }

    @Override
    public IMarkerFactory getMarkerFactory() {
        return markerFactory;
    }

    @Override
    public MDCAdapter getMDCAdapter() {
        return mdcAdapter;
    }

    @Override
    public String getRequestedApiVersion() {
        return REQUESTED_API_VERSION;
    }

    /** {@code troupe.console=tty} says yes and {@code script} no; without it, whether the JVM has a console. */
    static boolean runsInTerminal(Map<String, String> system) {
        String mode = system.get(CONSOLE_MODE_PROPERTY);
        if (mode != null && !mode.isBlank()) {
            return mode.trim().equalsIgnoreCase("tty");
        }
        return System.console() != null;
    }

    private static Map<String, String> systemProperties() {
        Properties properties = System.getProperties();
        Map<String, String> snapshot = new TreeMap<>();
        for (String key : properties.stringPropertyNames()) {
            String value = properties.getProperty(key);
            if (value != null) {
                snapshot.put(key, value);
            }
        }
        return snapshot;
    }
}
