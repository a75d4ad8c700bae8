package io.troupe.benchmarks;

import java.nio.file.Path;

import ch.qos.logback.classic.AsyncAppender;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.FileAppender;
import ch.qos.logback.core.util.FileSize;
import ch.qos.logback.core.util.StatusPrinter2;

/**
 * Logback with an {@link AsyncAppender} in front of a buffered {@link FileAppender}, configured in
 * code. The queue holds 262,144 events (as many as Log4j2's ring), {@code neverBlock=false} and
 * {@code discardingThreshold=0}, so callers wait when it is full and no INFO record is discarded;
 * {@code maxFlushTime} is raised so that stopping drains the whole queue.
 */
final class LogbackBenchLogger implements BenchLogger {

    static final int QUEUE_SIZE = 256 * 1024;

    private final Path folder;
    private final LoggerContext context;
    private final Logger logger;

    LogbackBenchLogger(Path folder) {
        this.folder = folder;
        context = new LoggerContext();
        // SLF4J's LoggerFactory (which would find Troupe's provider too) is not used, so the MDC
        // adapter it would install has to be set by hand; without one every append fails.
        context.setMDCAdapter(new LogbackMDCAdapter());
        context.start();

        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern("%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} %-5level [%thread] %logger - %msg%n");
        encoder.start();

        FileAppender<ILoggingEvent> file = new FileAppender<>();
        file.setContext(context);
        file.setName("file");
        file.setFile(folder.resolve("logback.log").toString());
        file.setAppend(false);
        file.setImmediateFlush(false);
        file.setBufferSize(new FileSize(256 * 1024));
        file.setEncoder(encoder);
        file.start();

        AsyncAppender async = new AsyncAppender();
        async.setContext(context);
        async.setName("async");
        async.setQueueSize(QUEUE_SIZE);
        async.setDiscardingThreshold(0);
        async.setNeverBlock(false);
        async.setIncludeCallerData(false);
        async.setMaxFlushTime(120_000);
        async.addAppender(file);
        async.start();

        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.INFO);
        root.addAppender(async);
        logger = context.getLogger(LoggerBenchmark.LOGGER_NAME);
        StatusPrinter2 printer = new StatusPrinter2();
        printer.printInCaseOfErrorsOrWarnings(context);
    }

    @Override
    public void info(String message) {
        logger.info(message);
    }

    @Override
    public long close() {
        context.stop(); // stops the async appender, which drains its queue into the file
        return 0; // neverBlock=false and discardingThreshold=0: Logback waits instead of dropping
    }

    @Override
    public Path folder() {
        return folder;
    }
}
