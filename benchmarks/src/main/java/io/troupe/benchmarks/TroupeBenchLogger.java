package io.troupe.benchmarks;

import java.nio.file.Path;

import org.slf4j.Logger;

import io.troupe.host.log.TroupeLogging;
import io.troupe.host.log.TroupeServiceProvider;

/**
 * Troupe's provider, instantiated directly (not through SLF4J's {@code LoggerFactory}, which would
 * find Logback's provider on the same class path): default flush interval (1 s), cap (8 MiB) and
 * full wait (100 ms); rolling is pushed out of reach so that every line stays countable; no console.
 */
final class TroupeBenchLogger implements BenchLogger {

    private final Path folder;
    private final TroupeLogging logging;
    private final Logger logger;

    TroupeBenchLogger(Path folder) {
        this.folder = folder;
        System.setProperty("troupe.home", folder.toString());
        System.setProperty("troupe.log.console", "false");
        System.setProperty("troupe.log.rollSizeBytes", Long.toString(Long.MAX_VALUE));
        TroupeServiceProvider provider = new TroupeServiceProvider();
        provider.initialize();
        logging = TroupeLogging.of(provider.getLoggerFactory());
        logger = provider.getLoggerFactory().getLogger(LoggerBenchmark.LOGGER_NAME);
    }

    @Override
    public void info(String message) {
        logger.info(message);
    }

    @Override
    public long close() {
        logging.stop();
        return logging.droppedRecords();
    }

    @Override
    public Path folder() {
        return folder;
    }
}
