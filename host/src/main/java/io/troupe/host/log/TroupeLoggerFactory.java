package io.troupe.host.log;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.slf4j.ILoggerFactory;
import org.slf4j.Logger;

/**
 * Hands out one {@link TroupeLogger} per name. The cache holds names and host classes only, so it
 * pins no other bundle's class loader.
 *
 * <p>Threading: any thread; concurrent requests for one name get the same instance.
 */
final class TroupeLoggerFactory implements ILoggerFactory {

    private final TroupeLogging logging;
    private final ConcurrentMap<String, TroupeLogger> loggers = new ConcurrentHashMap<>();

    TroupeLoggerFactory(TroupeLogging logging) {
        this.logging = Objects.requireNonNull(logging, "logging");
    }

    @Override
    public Logger getLogger(String name) {
        Objects.requireNonNull(name, "logger name");
        return loggers.computeIfAbsent(name,
                n -> new TroupeLogger(n, logging.thresholdFor(n), logging));
    }

    TroupeLogging logging() {
        return logging;
    }
}
