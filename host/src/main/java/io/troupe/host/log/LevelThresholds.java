package io.troupe.host.log;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.event.Level;

/**
 * The least severe level each logger writes: a root level, overridden for logger-name prefixes.
 *
 * <p>A prefix covers the logger of that exact name and every logger below it, where "below" means
 * the name continues with {@code .} or {@code $}: {@code io.troupe.host} covers
 * {@code io.troupe.host.log.FileSink} and {@code io.troupe.host.Host$Inner} but not
 * {@code io.troupe.hostile}. When several prefixes cover a name, the longest wins.
 *
 * <p>Threading: immutable; any thread.
 */
final class LevelThresholds {

    private final Level root;
    private final List<Map.Entry<String, Level>> longestFirst;

    LevelThresholds(Level root, Map<String, Level> prefixes) {
        this.root = Objects.requireNonNull(root, "root");
        List<Map.Entry<String, Level>> entries = new ArrayList<>(prefixes.size());
        for (Map.Entry<String, Level> entry : prefixes.entrySet()) {
            entries.add(Map.entry(entry.getKey(), entry.getValue()));
        }
        entries.sort(Comparator.comparingInt((Map.Entry<String, Level> e) -> e.getKey().length())
                .reversed());
        this.longestFirst = List.copyOf(entries);
    }

    Level root() {
        return root;
    }

    /** The threshold for {@code loggerName}; computed once per logger, so a linear scan is fine. */
    Level thresholdFor(String loggerName) {
        for (Map.Entry<String, Level> entry : longestFirst) {
            if (covers(entry.getKey(), loggerName)) {
                return entry.getValue();
            }
        }
        return root;
    }

    /** Whether a logger whose threshold is {@code threshold} writes records of {@code level}. */
    static boolean writes(Level threshold, Level level) {
        return level.toInt() >= threshold.toInt();
    }

    private static boolean covers(String prefix, String name) {
        if (!name.startsWith(prefix)) {
            return false;
        }
        if (name.length() == prefix.length() || prefix.endsWith(".")) {
            return true;
        }
        char next = name.charAt(prefix.length());
        return next == '.' || next == '$';
    }
}
