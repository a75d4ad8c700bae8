package io.troupe.host.log;

import java.time.Clock;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.helpers.BasicMDCAdapter;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * The SLF4J 2.x provider of the host, found by {@code ServiceLoader} through
 * {@code META-INF/services/org.slf4j.spi.SLF4JServiceProvider}: inside the framework only within the
 * host bundle, which embeds slf4j-api; in unit tests on the class path.
 *
 * <p>{@link #initialize()} reads the system properties (see {@link LogSettings}) and opens the sinks;
 * without {@code troupe.home}, as in unit tests, logging goes to stderr only.
 *
 * <p>Threading: SLF4J instantiates the provider and calls {@link #initialize()} once, under its own
 * lock, before any getter; the getters then run on any thread. The fields are volatile so that
 * visibility does not depend on how SLF4J publishes the provider.
 */
public final class TroupeServiceProvider implements SLF4JServiceProvider {

    /** The slf4j-api version the host embeds; SLF4J checks only the "2.0" prefix. */
    static final String REQUESTED_API_VERSION = "2.0.20";

    private volatile TroupeLoggerFactory loggerFactory;
    private volatile IMarkerFactory markerFactory;
    private volatile MDCAdapter mdcAdapter;

    /** Called by {@code ServiceLoader}; does no work until {@link #initialize()}. */
    public TroupeServiceProvider() {
    }

    @Override
    public void initialize() {
        TroupeLogging logging = new TroupeLogging(LogSettings.fromSystemProperties(),
                Clock.systemDefaultZone(), new ConsoleSink(), new BasicMDCAdapter());
        markerFactory = new BasicMarkerFactory();
        mdcAdapter = logging.mdc();
        loggerFactory = new TroupeLoggerFactory(logging);
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
}
