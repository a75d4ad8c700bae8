package io.troupe.host.log;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;
import org.osgi.service.metatype.annotations.Option;

/**
 * The logger's keys: {@code etc/io.troupe.log.cfg}, each key also a system property
 * {@code troupe.log.<key>} that the file overrides. {@link LogSettings} checks them against the
 * metatype document bnd writes from this type, with the same check as the ConfigAdmin
 * configurations (io.troupe.config).
 *
 * <p>Not a ConfigAdmin configuration, although FileInstall also turns the file into the PID
 * {@code io.troupe.log} (no Designate names it, so no tool offers to edit that PID, which the logger
 * would not see): the logger runs from the moment SLF4J binds, before the host activator, ConfigAdmin
 * and FileInstall, and the levels must apply to the records of the bundles that start before them.
 * So the logger reads the file itself ({@link LogConfigFile}, with its guard against a file caught
 * half-written) and the system properties before it.
 *
 * <p>Two kinds of key are not here: {@code level.<prefix>} (one per logger prefix, any number;
 * checked against the options of {@link #level()}), and {@code troupe.home} and
 * {@code troupe.log.config}, paths read as system properties only.
 *
 * <p><b>Threading:</b> the instances are immutable views.
 */
@ObjectClassDefinition(name = "Troupe logger",
        description = "etc/io.troupe.log.cfg, read by the logger itself and applied while Troupe runs; each key is "
                + "also the system property troupe.log.<key>, which the file overrides.")
@interface LogConfiguration {

    @AttributeDefinition(name = "Root level", description = "The level of every logger no level.<prefix> names "
            + "(any case).", options = {@Option(value = "TRACE"), @Option(value = "DEBUG"), @Option(value = "INFO"),
                @Option(value = "WARN"), @Option(value = "ERROR")})
    String level() default "INFO";

    @AttributeDefinition(name = "Flush interval", min = "1", max = "3600000",
            description = "Milliseconds: the logger thread writes queued records at least this often.")
    long flushIntervalMillis() default LogSettings.DEFAULT_FLUSH_INTERVAL_MILLIS;

    @AttributeDefinition(name = "Buffer cap", min = "" + RecordQueue.MIN_CAP_BYTES,
            max = "" + RecordQueue.MAX_CAP_BYTES,
            description = "Bytes of records waiting in memory; past it a caller waits fullWaitMillis, then its "
                    + "record is dropped, counted and reported.")
    int bufferCapBytes() default LogSettings.DEFAULT_BUFFER_CAP_BYTES;

    @AttributeDefinition(name = "Wait at the cap", min = "0", max = "60000",
            description = "Milliseconds a caller waits for room at the cap before its record is dropped.")
    long fullWaitMillis() default LogSettings.DEFAULT_FULL_WAIT_MILLIS;

    @AttributeDefinition(name = "Roll size", min = "1024",
            description = "Bytes at which troupe.log is rolled to troupe.log.1.")
    long rollSizeBytes() default LogSettings.DEFAULT_ROLL_SIZE_BYTES;

    @AttributeDefinition(name = "Retention", min = "0", max = "1000",
            description = "Rolled files kept: troupe.log.1 ... troupe.log.<retention>.")
    int retention() default LogSettings.DEFAULT_RETENTION;

    @AttributeDefinition(name = "Console", description = "Copy records to standard error: true, false, or auto "
            + "(when Troupe runs in a terminal, or has no log file); any case.",
            options = {@Option(value = "true"), @Option(value = "false"), @Option(value = "auto")})
    String console() default "auto";

    @AttributeDefinition(name = "Format", description = "How each record is written to the file and the console: "
            + "text (one line, then the stack trace if any) or json (one JSON object per line, with the MDC entries "
            + "and the throwable, for log shippers); any case.",
            options = {@Option(value = "text"), @Option(value = "json")})
    String format() default "text";

    @AttributeDefinition(name = "Configuration poll", min = "10", max = "3600000",
            description = "System property troupe.log.configPollMillis only: milliseconds between two looks at "
                    + "etc/io.troupe.log.cfg.")
    long configPollMillis() default LogSettings.DEFAULT_CONFIG_POLL_MILLIS;
}
