package io.troupe.host.log;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import org.slf4j.event.Level;

/**
 * Logging configuration read from system properties, validated once at the edge.
 *
 * <table>
 * <caption>Properties</caption>
 * <tr><th>property</th><th>meaning</th><th>when absent or invalid</th></tr>
 * <tr><td>{@code troupe.home}</td><td>also write to {@code <troupe.home>/log/troupe.log}</td>
 *     <td>console only</td></tr>
 * <tr><td>{@code troupe.log.level}</td><td>root level: TRACE, DEBUG, INFO, WARN or ERROR
 *     (any case)</td><td>INFO</td></tr>
 * <tr><td>{@code troupe.log.level.<prefix>}</td><td>level for loggers under {@code <prefix>}, see
 *     {@link LevelThresholds}</td><td>the property is ignored</td></tr>
 * </table>
 *
 * Each invalid property yields exactly one entry in {@link #warnings()}, which
 * {@link TroupeLogging} writes as a WARN record.
 *
 * <p>Threading: immutable; any thread.
 */
final class LogSettings {

    static final String HOME_PROPERTY = "troupe.home";
    static final String LEVEL_PROPERTY = "troupe.log.level";
    static final String LEVEL_PREFIX_PROPERTY = LEVEL_PROPERTY + ".";
    static final Level DEFAULT_LEVEL = Level.INFO;

    private static final String LEVEL_NAMES = "TRACE, DEBUG, INFO, WARN, ERROR";

    private final LevelThresholds thresholds;
    private final Path logFile;
    private final List<String> warnings;

    private LogSettings(LevelThresholds thresholds, Path logFile, List<String> warnings) {
        this.thresholds = thresholds;
        this.logFile = logFile;
        this.warnings = List.copyOf(warnings);
    }

    /** Reads the current system properties. */
    static LogSettings fromSystemProperties() {
        Properties system = System.getProperties();
        Map<String, String> snapshot = new TreeMap<>();
        for (String key : system.stringPropertyNames()) {
            String value = system.getProperty(key);
            if (value != null) {
                snapshot.put(key, value);
            }
        }
        return parse(snapshot);
    }

    static LogSettings parse(Map<String, String> properties) {
        List<String> warnings = new ArrayList<>();
        Map<String, String> sorted = new TreeMap<>(properties); // warnings in a stable order

        Level root = DEFAULT_LEVEL;
        String rootValue = sorted.get(LEVEL_PROPERTY);
        if (rootValue != null) {
            Optional<Level> parsed = parseLevel(rootValue);
            if (parsed.isEmpty()) {
                warnings.add(invalidLevel(LEVEL_PROPERTY, rootValue)
                        + "; using the default " + DEFAULT_LEVEL);
            }
            root = parsed.orElse(DEFAULT_LEVEL);
        }

        Map<String, Level> prefixes = new TreeMap<>();
        for (Map.Entry<String, String> entry : sorted.entrySet()) {
            String key = entry.getKey();
            if (!key.startsWith(LEVEL_PREFIX_PROPERTY)) {
                continue;
            }
            String prefix = key.substring(LEVEL_PREFIX_PROPERTY.length());
            if (prefix.isBlank()) {
                warnings.add("Property " + key + " names no logger prefix; ignored");
                continue;
            }
            Optional<Level> level = parseLevel(entry.getValue());
            if (level.isPresent()) {
                prefixes.put(prefix, level.get());
            } else {
                warnings.add(invalidLevel(key, entry.getValue()) + "; ignored, so loggers under "
                        + prefix + " keep the level of a shorter prefix or the root level");
            }
        }

        return new LogSettings(new LevelThresholds(root, prefixes),
                logFileUnder(sorted.get(HOME_PROPERTY), warnings), warnings);
    }

    LevelThresholds thresholds() {
        return thresholds;
    }

    /** {@code <troupe.home>/log/troupe.log}, or empty when {@code troupe.home} is not usable. */
    Optional<Path> logFile() {
        return Optional.ofNullable(logFile);
    }

    /** One human-readable sentence per invalid property, in property-name order. */
    List<String> warnings() {
        return warnings;
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

    private static String invalidLevel(String property, String value) {
        return "Invalid value \"" + value + "\" for " + property + ": expected one of " + LEVEL_NAMES;
    }

    private static Path logFileUnder(String home, List<String> warnings) {
        if (home == null) {
            return null;
        }
        if (home.isBlank()) {
            warnings.add("Property " + HOME_PROPERTY + " is blank; logging to the console only");
            return null;
        }
        try {
            return Path.of(home).resolve("log").resolve("troupe.log");
        } catch (InvalidPathException e) {
            warnings.add("Property " + HOME_PROPERTY + "=\"" + home + "\" is not a valid path ("
                    + e.getReason() + "); logging to the console only");
            return null;
        }
    }
}
