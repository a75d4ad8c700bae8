package io.troupe.host.log;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.slf4j.ILoggerFactory;
import org.slf4j.Logger;

/**
 * Hands out one {@link TroupeLogger} per name and moves every logger to new thresholds when the
 * configuration changes. The cache holds names and host classes only, so it pins no other bundle's
 * class loader.
 *
 * <p>Threading: any thread; concurrent requests for one name get the same instance. Creating a
 * logger and applying thresholds are serialised on this factory, so a logger created during a
 * reconfiguration never keeps the old threshold; looking up an existing logger takes no lock.
 */
final class TroupeLoggerFactory implements ILoggerFactory {

    private final TroupeLogging logging;
    private final ConcurrentMap<String, TroupeLogger> loggers = new ConcurrentHashMap<>();
    /** Guarded by this. */
    private LevelThresholds thresholds;

    TroupeLoggerFactory(TroupeLogging logging, LevelThresholds thresholds) {
        this.logging = Objects.requireNonNull(logging, "logging");
        this.thresholds = Objects.requireNonNull(thresholds, "thresholds");
    }

    @Override
    public Logger getLogger(String name) {
        Objects.requireNonNull(name, "logger name");
        TroupeLogger logger = loggers.get(name);
        if (logger != null) {
            return logger;
        }
        synchronized (this) {
            return loggers.computeIfAbsent(name,
                    n -> new TroupeLogger(n, thresholds.thresholdFor(n), logging));
        }
    }

    /** Gives every logger, existing or future, its threshold from {@code next}. */
    synchronized void apply(LevelThresholds next) {
        thresholds = Objects.requireNonNull(next, "thresholds");
        for (TroupeLogger logger : loggers.values()) {
            logger.setThreshold(next.thresholdFor(logger.getName()));
        }
    }

    TroupeLogging logging() {
        return logging;
    }
}
