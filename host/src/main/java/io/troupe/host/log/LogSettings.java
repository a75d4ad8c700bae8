package io.troupe.host.log;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.event.Level;

import io.troupe.config.CheckedConfiguration;
import io.troupe.config.ConfigurationCheck;
import io.troupe.config.ConfigurationProblem;
import io.troupe.config.ConfigurationSource;

/**
 * Logging configuration, validated once at the edge: from system properties ({@code troupe.log.<key>})
 * overlaid by {@code etc/io.troupe.log.cfg} (the same keys without the prefix), which wins where both
 * set a key and is re-read live.
 *
 * <p>The keys, their types, defaults, bounds and descriptions are those of the typed model
 * {@link LogConfiguration} ({@code level}, {@code flushIntervalMillis}, {@code bufferCapBytes},
 * {@code fullWaitMillis}, {@code rollSizeBytes}, {@code retention}, {@code console}, {@code format}), checked
 * by the same {@link ConfigurationCheck} as the ConfigAdmin configurations; besides them {@code level.<prefix>}
 * sets the level of the loggers under a prefix ({@link LevelThresholds}), checked against the same
 * level names.
 *
 * System properties only: {@code troupe.home} (the log file is {@code <troupe.home>/log/troupe.log}
 * and the configuration file {@code <troupe.home>/etc/io.troupe.log.cfg}; without it, no file),
 * {@code troupe.log.config} (another configuration file) and {@code troupe.log.configPollMillis}
 * (how often the file's modification time is checked, default 2000; in the typed model too).
 *
 * <p>Each invalid or unknown key yields one sentence in {@link #warnings()}, which
 * {@link TroupeLogging} writes as a WARN record; the key then keeps its previous value (the default
 * at the first parse).
 *
 * <p>Threading: immutable; any thread.
 */
final class LogSettings {

    static final String HOME_PROPERTY = "troupe.home";
    static final String SYSTEM_PREFIX = "troupe.log.";
    static final String CONFIG_PROPERTY = SYSTEM_PREFIX + "config";
    static final String CONFIG_POLL_PROPERTY = SYSTEM_PREFIX + "configPollMillis";
    static final String CONFIG_FILE_NAME = "io.troupe.log.cfg";

    static final String LEVEL = "level";
    static final String LEVEL_PREFIX = "level.";
    static final String FLUSH_INTERVAL = "flushIntervalMillis";
    static final String BUFFER_CAP = "bufferCapBytes";
    static final String FULL_WAIT = "fullWaitMillis";
    static final String ROLL_SIZE = "rollSizeBytes";
    static final String RETENTION = "retention";
    static final String CONSOLE = "console";
    static final String FORMAT = "format";
    private static final Set<String> KEYS = Set.of(LEVEL, FLUSH_INTERVAL, BUFFER_CAP, FULL_WAIT,
            ROLL_SIZE, RETENTION, CONSOLE, FORMAT);
    private static final Set<String> SYSTEM_ONLY = Set.of(CONFIG_PROPERTY, CONFIG_POLL_PROPERTY);

    static final Level DEFAULT_LEVEL = Level.INFO;
    static final long DEFAULT_FLUSH_INTERVAL_MILLIS = 1000;
    static final int DEFAULT_BUFFER_CAP_BYTES = 8 * 1024 * 1024;
    static final long DEFAULT_FULL_WAIT_MILLIS = 100;
    static final long DEFAULT_ROLL_SIZE_BYTES = 50L * 1024 * 1024;
    static final int DEFAULT_RETENTION = 5;
    static final long DEFAULT_CONFIG_POLL_MILLIS = 2000;

    static final String CONFIG_POLL = "configPollMillis";

    private static final ConfigurationCheck<LogConfiguration> CHECK = ConfigurationCheck.of(LogConfiguration.class);
    /** The level names, from the typed model's options. */
    private static final List<String> LEVEL_NAMES = List.of(CHECK.schema().attributes().get(LEVEL).getOptionValues());

    /** Whether records are copied to stderr. */
    enum Console {
        TRUE, FALSE, AUTO;

        /** Whether to write to the console, given whether Troupe runs in a terminal and has a file. */
        boolean resolve(boolean terminal, boolean hasFile) {
            return this == TRUE || (this == AUTO && (terminal || !hasFile));
        }
    }

    /** How records are written: {@link LogLineFormat} or {@link JsonLineFormat}. */
    enum Format {
        TEXT, JSON
    }

    private static final LogSettings DEFAULTS = new LogSettings();

    private final Level root;
    private final Map<String, Level> prefixes;
    private final LevelThresholds thresholds;
    private final Path logFile;
    private final Path configFile;
    private final long flushIntervalMillis;
    private final int bufferCapBytes;
    private final long fullWaitMillis;
    private final long rollSizeBytes;
    private final int retention;
    private final Console console;
    private final Format format;
    private final long configPollMillis;
    private final List<String> warnings;
    /** The values of the keys of {@link LogConfiguration} accepted last, which the next bad value keeps. */
    private final Map<String, Object> values;

    private LogSettings() {
        this(DEFAULT_LEVEL, Map.of(), null, null, DEFAULT_FLUSH_INTERVAL_MILLIS, DEFAULT_BUFFER_CAP_BYTES,
                DEFAULT_FULL_WAIT_MILLIS, DEFAULT_ROLL_SIZE_BYTES, DEFAULT_RETENTION, Console.AUTO, Format.TEXT,
                DEFAULT_CONFIG_POLL_MILLIS, List.of(), Map.of());
    }

    private LogSettings(Level root, Map<String, Level> prefixes, Path logFile, Path configFile,
            long flushIntervalMillis, int bufferCapBytes, long fullWaitMillis, long rollSizeBytes,
            int retention, Console console, Format format, long configPollMillis, List<String> warnings,
            Map<String, Object> values) {
        this.root = root;
        this.prefixes = Map.copyOf(prefixes);
        this.thresholds = new LevelThresholds(root, prefixes);
        this.logFile = logFile;
        this.configFile = configFile;
        this.flushIntervalMillis = flushIntervalMillis;
        this.bufferCapBytes = bufferCapBytes;
        this.fullWaitMillis = fullWaitMillis;
        this.rollSizeBytes = rollSizeBytes;
        this.retention = retention;
        this.console = console;
        this.format = format;
        this.configPollMillis = configPollMillis;
        this.warnings = List.copyOf(warnings);
        this.values = Map.copyOf(values);
    }

    /** Settings from system properties alone, as at the first start. */
    static LogSettings parse(Map<String, String> system) {
        return parse(system, Map.of(), null);
    }

    /**
     * @param system   system properties (other keys are ignored)
     * @param file     the entries of the configuration file; empty when it is absent
     * @param previous the settings in force, whose values invalid keys keep; null at the first parse
     */
    static LogSettings parse(Map<String, String> system, Map<String, String> file, LogSettings previous) {
        return new Parser(system, file, previous).parse();
    }

    LevelThresholds thresholds() {
        return thresholds;
    }

    /** {@code <troupe.home>/log/troupe.log}, or empty when {@code troupe.home} is not usable. */
    Optional<Path> logFile() {
        return Optional.ofNullable(logFile);
    }

    /** The live configuration file, or empty when there is none to watch. */
    Optional<Path> configFile() {
        return Optional.ofNullable(configFile);
    }

    long flushIntervalMillis() {
        return flushIntervalMillis;
    }

    int bufferCapBytes() {
        return bufferCapBytes;
    }

    long fullWaitMillis() {
        return fullWaitMillis;
    }

    long rollSizeBytes() {
        return rollSizeBytes;
    }

    int retention() {
        return retention;
    }

    Console console() {
        return console;
    }

    Format format() {
        return format;
    }

    long configPollMillis() {
        return configPollMillis;
    }

    /** One human-readable sentence per invalid or unknown key, in key order. */
    List<String> warnings() {
        return warnings;
    }

    /** Reads the keys once; each method adds at most one warning per key. */
    private static final class Parser {

        private final Map<String, String> system;
        private final Map<String, String> file;
        private final LogSettings previous;
        private final List<String> warnings = new ArrayList<>();

        Parser(Map<String, String> system, Map<String, String> file, LogSettings previous) {
            this.system = new TreeMap<>(system); // warnings in a stable order
            this.file = new TreeMap<>(file);
            this.previous = previous == null ? DEFAULTS : previous;
        }

        LogSettings parse() {
            warnUnknownKeys();
            Map<String, Object> raw = new HashMap<>();
            for (String key : KEYS) {
                String value = value(key);
                if (value != null) {
                    raw.put(key, normalized(key, value));
                }
            }
            String poll = system.get(CONFIG_POLL_PROPERTY);
            if (poll != null) {
                raw.put(CONFIG_POLL, poll);
            }
            CheckedConfiguration<LogConfiguration> checked = CHECK.check(raw, previous.values,
                    ConfigurationSource.describedAs(CONFIG_FILE_NAME), ConfigurationCheck.Fallback.PREVIOUS_VALUE);
            for (ConfigurationProblem problem : checked.problems()) {
                String key = problem.key();
                String given = key.equals(CONFIG_POLL) ? poll : value(key);
                warnings.add(label(key) + " = '" + given + "': " + problem.reason() + "; keeping " + problem.kept());
            }
            LogConfiguration config = checked.typed();
            Map<String, Level> prefixes = prefixes();
            Path logFile = logFile();
            Path configFile = configFile();
            return new LogSettings(Level.valueOf(config.level()), prefixes, logFile, configFile,
                    config.flushIntervalMillis(), config.bufferCapBytes(), config.fullWaitMillis(),
                    config.rollSizeBytes(), config.retention(),
                    Console.valueOf(config.console().toUpperCase(Locale.ROOT)),
                    Format.valueOf(config.format().toUpperCase(Locale.ROOT)), config.configPollMillis(), warnings,
                    checked.values());
        }

        private void warnUnknownKeys() {
            for (String key : file.keySet()) {
                if (!KEYS.contains(key) && !key.startsWith(LEVEL_PREFIX)) {
                    warnings.add("Unknown key " + key + " in " + CONFIG_FILE_NAME + "; ignored");
                }
            }
            for (String key : system.keySet()) {
                if (key.startsWith(SYSTEM_PREFIX) && !SYSTEM_ONLY.contains(key)) {
                    String shortKey = key.substring(SYSTEM_PREFIX.length());
                    if (!KEYS.contains(shortKey) && !shortKey.startsWith(LEVEL_PREFIX)) {
                        warnings.add("Unknown property " + key + "; ignored");
                    }
                }
            }
        }

        /** The value of {@code key}, from the file if it has it, else from the system properties. */
        private String value(String key) {
            String fromFile = file.get(key);
            return fromFile != null ? fromFile : system.get(SYSTEM_PREFIX + key);
        }

        /** {@code io.troupe.log.cfg: <key>} or {@code troupe.log.<key>}: where a value came from. */
        private String label(String key) {
            return file.containsKey(key) ? CONFIG_FILE_NAME + ": " + key : SYSTEM_PREFIX + key;
        }

        private Map<String, Level> prefixes() {
            Set<String> names = new TreeSet<>();
            for (String key : system.keySet()) {
                if (key.startsWith(SYSTEM_PREFIX + LEVEL_PREFIX)) {
                    names.add(key.substring(SYSTEM_PREFIX.length()));
                }
            }
            for (String key : file.keySet()) {
                if (key.startsWith(LEVEL_PREFIX)) {
                    names.add(key);
                }
            }
            Map<String, Level> prefixes = new TreeMap<>();
            for (String key : names) {
                String prefix = key.substring(LEVEL_PREFIX.length()).trim();
                if (prefix.isEmpty()) {
                    warnings.add(label(key) + " names no logger prefix; ignored");
                    continue;
                }
                String value = value(key);
                Optional<Level> level = parseLevel(value);
                Level kept = previous.prefixes.get(prefix);
                if (level.isPresent()) {
                    prefixes.put(prefix, level.get());
                } else if (kept != null) {
                    prefixes.put(prefix, kept);
                    warnings.add(notALevel(key, value) + "; keeping " + kept);
                } else {
                    warnings.add(notALevel(key, value) + "; ignored, so loggers under " + prefix
                            + " keep the level of a shorter prefix or the root level");
                }
            }
            return prefixes;
        }

        private String notALevel(String key, String value) {
            return label(key) + " = '" + value + "': not one of " + String.join(", ", LEVEL_NAMES);
        }

        private Path logFile() {
            Path home = home();
            return home == null ? null : home.resolve("log").resolve("troupe.log");
        }

        private Path configFile() {
            String explicit = system.get(CONFIG_PROPERTY);
            if (explicit != null && !explicit.isBlank()) {
                try {
                    return Path.of(explicit.trim());
                } catch (InvalidPathException e) {
                    warnings.add("Property " + CONFIG_PROPERTY + "=\"" + explicit + "\" is not a valid path ("
                            + e.getReason() + "); ignored");
                }
            }
            Path home = home();
            return home == null ? null : home.resolve("etc").resolve(CONFIG_FILE_NAME);
        }

        private Path home() {
            String home = system.get(HOME_PROPERTY);
            if (home == null) {
                return null;
            }
            if (home.isBlank()) {
                warnOnce("Property " + HOME_PROPERTY + " is blank; logging to the console only");
                return null;
            }
            try {
                return Path.of(home);
            } catch (InvalidPathException e) {
                warnOnce("Property " + HOME_PROPERTY + "=\"" + home + "\" is not a valid path ("
                        + e.getReason() + "); logging to the console only");
                return null;
            }
        }

        private void warnOnce(String warning) {
            if (!warnings.contains(warning)) {
                warnings.add(warning);
            }
        }
    }

    /** A level name in any case, surrounding blanks ignored; one of the options of {@link LogConfiguration#level()}. */
    private static Optional<Level> parseLevel(String value) {
        String name = value.trim().toUpperCase(Locale.ROOT);
        return LEVEL_NAMES.contains(name) ? Optional.of(Level.valueOf(name)) : Optional.empty();
    }

    /** The forms of a value the model's options take: level names in capitals, console and format in small letters. */
    private static String normalized(String key, String value) {
        return switch (key) {
            case LEVEL -> value.trim().toUpperCase(Locale.ROOT);
            case CONSOLE, FORMAT -> value.trim().toLowerCase(Locale.ROOT);
            default -> value;
        };
    }
}
