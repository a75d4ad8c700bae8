package io.troupe.host.log;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.event.Level;

/**
 * Logging configuration, validated once at the edge: from system properties ({@code troupe.log.<key>})
 * overlaid by {@code etc/io.troupe.log.cfg} (the same keys without the prefix), which wins where both
 * set a key and is re-read live.
 *
 * <table>
 * <caption>Keys</caption>
 * <tr><th>key</th><th>meaning</th><th>default</th></tr>
 * <tr><td>{@code level}</td><td>root level: TRACE, DEBUG, INFO, WARN or ERROR (any case)</td><td>INFO</td></tr>
 * <tr><td>{@code level.<prefix>}</td><td>level of the loggers under {@code <prefix>}, see
 *     {@link LevelThresholds}</td><td></td></tr>
 * <tr><td>{@code flushIntervalMillis}</td><td>the logger thread writes at least this often</td><td>1000</td></tr>
 * <tr><td>{@code bufferCapBytes}</td><td>bytes queued in memory before records are dropped
 *     (64 KiB to 512 MiB)</td><td>8 MiB</td></tr>
 * <tr><td>{@code fullWaitMillis}</td><td>how long a caller waits for room at the cap before the record
 *     is dropped</td><td>100</td></tr>
 * <tr><td>{@code rollSizeBytes}</td><td>size at which troupe.log is rolled (at least 1 KiB)</td><td>50 MiB</td></tr>
 * <tr><td>{@code retention}</td><td>rolled files kept, troupe.log.1 … troupe.log.N</td><td>5</td></tr>
 * <tr><td>{@code console}</td><td>copy records to stderr: true, false, or auto (when Troupe runs in a
 *     terminal, or has no log file)</td><td>auto</td></tr>
 * </table>
 *
 * System properties only: {@code troupe.home} (the log file is {@code <troupe.home>/log/troupe.log}
 * and the configuration file {@code <troupe.home>/etc/io.troupe.log.cfg}; without it, no file),
 * {@code troupe.log.config} (another configuration file) and {@code troupe.log.configPollMillis}
 * (how often the file's modification time is checked, default 2000).
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
    private static final Set<String> KEYS = Set.of(LEVEL, FLUSH_INTERVAL, BUFFER_CAP, FULL_WAIT,
            ROLL_SIZE, RETENTION, CONSOLE);
    private static final Set<String> SYSTEM_ONLY = Set.of(CONFIG_PROPERTY, CONFIG_POLL_PROPERTY);

    static final Level DEFAULT_LEVEL = Level.INFO;
    static final long DEFAULT_FLUSH_INTERVAL_MILLIS = 1000;
    static final int DEFAULT_BUFFER_CAP_BYTES = 8 * 1024 * 1024;
    static final long DEFAULT_FULL_WAIT_MILLIS = 100;
    static final long DEFAULT_ROLL_SIZE_BYTES = 50L * 1024 * 1024;
    static final int DEFAULT_RETENTION = 5;
    static final long DEFAULT_CONFIG_POLL_MILLIS = 2000;

    private static final String LEVEL_NAMES = "one of TRACE, DEBUG, INFO, WARN, ERROR";

    /** Whether records are copied to stderr. */
    enum Console {
        TRUE, FALSE, AUTO;

        /** Whether to write to the console, given whether Troupe runs in a terminal and has a file. */
        boolean resolve(boolean terminal, boolean hasFile) {
            return this == TRUE || (this == AUTO && (terminal || !hasFile));
        }
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
    private final long configPollMillis;
    private final List<String> warnings;

    private LogSettings() {
        this(DEFAULT_LEVEL, Map.of(), null, null, DEFAULT_FLUSH_INTERVAL_MILLIS, DEFAULT_BUFFER_CAP_BYTES,
                DEFAULT_FULL_WAIT_MILLIS, DEFAULT_ROLL_SIZE_BYTES, DEFAULT_RETENTION, Console.AUTO,
                DEFAULT_CONFIG_POLL_MILLIS, List.of());
    }

    private LogSettings(Level root, Map<String, Level> prefixes, Path logFile, Path configFile,
            long flushIntervalMillis, int bufferCapBytes, long fullWaitMillis, long rollSizeBytes,
            int retention, Console console, long configPollMillis, List<String> warnings) {
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
        this.configPollMillis = configPollMillis;
        this.warnings = List.copyOf(warnings);
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
        private final String keeping;

        Parser(Map<String, String> system, Map<String, String> file, LogSettings previous) {
            this.system = new TreeMap<>(system); // warnings in a stable order
            this.file = new TreeMap<>(file);
            this.previous = previous == null ? DEFAULTS : previous;
            this.keeping = previous == null ? "; using the default " : "; keeping ";
        }

        LogSettings parse() {
            warnUnknownKeys();
            Level root = level(LEVEL, previous.root);
            Map<String, Level> prefixes = prefixes();
            Path logFile = logFile();
            Path configFile = configFile();
            long flush = number(FLUSH_INTERVAL, 1, 3_600_000, previous.flushIntervalMillis);
            int cap = (int) number(BUFFER_CAP, RecordQueue.MIN_CAP_BYTES, RecordQueue.MAX_CAP_BYTES,
                    previous.bufferCapBytes);
            long fullWait = number(FULL_WAIT, 0, 60_000, previous.fullWaitMillis);
            long rollSize = number(ROLL_SIZE, 1024, Long.MAX_VALUE, previous.rollSizeBytes);
            int retention = (int) number(RETENTION, 0, 1000, previous.retention);
            Console console = console(previous.console);
            long poll = systemNumber(CONFIG_POLL_PROPERTY, 10, 3_600_000, previous.configPollMillis);
            return new LogSettings(root, prefixes, logFile, configFile, flush, cap, fullWait, rollSize,
                    retention, console, poll, warnings);
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

        private String label(String key) {
            return file.containsKey(key) ? key + " in " + CONFIG_FILE_NAME : SYSTEM_PREFIX + key;
        }

        private Level level(String key, Level kept) {
            String value = value(key);
            if (value == null) {
                return DEFAULT_LEVEL;
            }
            Optional<Level> parsed = parseLevel(value);
            if (parsed.isEmpty()) {
                warnings.add(invalid(label(key), value, LEVEL_NAMES) + keeping + kept);
            }
            return parsed.orElse(kept);
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
                    warnings.add("Property " + label(key) + " names no logger prefix; ignored");
                    continue;
                }
                String value = value(key);
                Optional<Level> level = parseLevel(value);
                Level kept = previous.prefixes.get(prefix);
                if (level.isPresent()) {
                    prefixes.put(prefix, level.get());
                } else if (kept != null) {
                    prefixes.put(prefix, kept);
                    warnings.add(invalid(label(key), value, LEVEL_NAMES) + "; keeping " + kept);
                } else {
                    warnings.add(invalid(label(key), value, LEVEL_NAMES) + "; ignored, so loggers under "
                            + prefix + " keep the level of a shorter prefix or the root level");
                }
            }
            return prefixes;
        }

        private long number(String key, long min, long max, long kept) {
            String value = value(key);
            return value == null ? defaultOf(key) : parseNumber(label(key), value, min, max, kept);
        }

        private long systemNumber(String property, long min, long max, long kept) {
            String value = system.get(property);
            return value == null ? DEFAULT_CONFIG_POLL_MILLIS : parseNumber(property, value, min, max, kept);
        }

        private long parseNumber(String label, String value, long min, long max, long kept) {
            try {
                long parsed = Long.parseLong(value.trim());
                if (parsed >= min && parsed <= max) {
                    return parsed;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            String range = max == Long.MAX_VALUE ? "a whole number of at least " + min
                    : "a whole number from " + min + " to " + max;
            warnings.add(invalid(label, value, range) + keeping + kept);
            return kept;
        }

        private Console console(Console kept) {
            String value = value(CONSOLE);
            if (value == null) {
                return Console.AUTO;
            }
            String name = value.trim().toUpperCase(Locale.ROOT);
            for (Console console : Console.values()) {
                if (console.name().equals(name)) {
                    return console;
                }
            }
            warnings.add(invalid(label(CONSOLE), value, "true, false or auto") + keeping
                    + kept.name().toLowerCase(Locale.ROOT));
            return kept;
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

        private static long defaultOf(String key) {
            return switch (key) {
                case FLUSH_INTERVAL -> DEFAULT_FLUSH_INTERVAL_MILLIS;
                case BUFFER_CAP -> DEFAULT_BUFFER_CAP_BYTES;
                case FULL_WAIT -> DEFAULT_FULL_WAIT_MILLIS;
                case ROLL_SIZE -> DEFAULT_ROLL_SIZE_BYTES;
                case RETENTION -> DEFAULT_RETENTION;
                default -> throw new IllegalArgumentException(key);
            };
        }
    }

    private static Optional<Level> parseLevel(String value) {
        String name = value.trim().toUpperCase(Locale.ROOT);
        for (Level level : Level.values()) {
            if (level.name().equals(name)) {
                return Optional.of(level);
            }
        }
        return Optional.empty();
    }

    private static String invalid(String label, String value, String expected) {
        return "Invalid value \"" + value + "\" for " + label + ": expected " + expected;
    }
}
