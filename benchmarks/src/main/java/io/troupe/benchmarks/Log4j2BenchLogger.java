package io.troupe.benchmarks;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LoggerContext;

/**
 * Log4j2 with all loggers asynchronous (LMAX Disruptor 3.4.4, the version Log4j2 is built with;
 * default ring of 256 Ki slots, default wait strategy, and the default queue-full policy, which makes
 * callers wait rather than drop),
 * writing through a buffered File appender with {@code immediateFlush=false}; the configuration is
 * {@code bench-log4j2.xml} in the benchmark resources. It is not named {@code log4j2.xml} so that
 * libraries which merely find Log4j2 on the class path (Netty, Pekko's tests) never load it.
 */
final class Log4j2BenchLogger implements BenchLogger {

    private final Path folder;
    private final Logger logger;

    Log4j2BenchLogger(Path folder) {
        this.folder = folder;
        System.setProperty("log4j2.contextSelector",
                "org.apache.logging.log4j.core.async.AsyncLoggerContextSelector");
        System.setProperty("log4j2.shutdownHookEnabled", "false");
        System.setProperty("bench.log4j2.file", folder.resolve("log4j2.log").toString());
        System.setProperty("log4j2.configurationFile", "bench-log4j2.xml");
        logger = LogManager.getLogger(LoggerBenchmark.LOGGER_NAME);
        if (!logger.getClass().getName().contains("AsyncLogger")) {
            throw new IllegalStateException("not an async logger: " + logger.getClass().getName());
        }
    }

    @Override
    public void info(String message) {
        logger.info(message);
    }

    @Override
    public long close() {
        // Stopping with a timeout waits until the ring buffer is drained (without one, Log4j2 halts
        // the background thread and what is still in the ring never reaches the file).
        ((LoggerContext) LogManager.getContext(false)).stop(5, TimeUnit.MINUTES);
        return 0; // with the default policy Log4j2 waits instead of dropping
    }

    @Override
    public Path folder() {
        return folder;
    }
}
