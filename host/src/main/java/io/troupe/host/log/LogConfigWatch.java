package io.troupe.host.log;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The logger's configuration and the watching of it: the system properties {@code troupe.log.*}
 * overlaid by {@code etc/io.troupe.log.cfg} ({@link LogConfigFile}), parsed into {@link LogSettings}
 * (checked against the typed model {@link LogConfiguration}); one of the three parts of the logger,
 * beside the facade {@link TroupeLogging} and the writer {@link LogWriter}.
 *
 * <p>Why the logger watches its file itself rather than through ConfigAdmin: see
 * {@link LogConfiguration}.
 *
 * <p><b>Threading:</b> {@link #settings()} from any thread (a volatile read of immutable settings).
 * The constructor's caller, then the logger thread holding the I/O lock, call {@link #poll} and
 * {@link #newWarnings}, one at a time.
 */
final class LogConfigWatch {

    private final Map<String, String> system;
    private final LogConfigFile file;
    private volatile LogSettings settings;
    /** Warnings already written, so that an unchanged bad key warns once. */
    private Set<String> warned = Set.of();

    /**
     * Reads the system properties and, if it exists, the configuration file.
     *
     * @param problems receives why the file could not be read
     */
    LogConfigWatch(Map<String, String> system, Consumer<String> problems) {
        this.system = Map.copyOf(system);
        LogSettings first = LogSettings.parse(this.system);
        this.file = first.configFile().map(LogConfigFile::new).orElse(null);
        if (file != null) {
            Optional<Map<String, String>> entries = file.readIfChanged(problems);
            if (entries.isPresent()) {
                first = LogSettings.parse(this.system, entries.get(), null);
            }
        }
        this.settings = first;
    }

    /** The settings in force. */
    LogSettings settings() {
        return settings;
    }

    /** The configuration file watched; empty when there is none. */
    Optional<Path> path() {
        return file == null ? Optional.empty() : Optional.of(file.path());
    }

    /**
     * The new settings if the file changed (and has kept the change for one more poll), else empty;
     * bad values keep their previous setting.
     *
     * @param problems receives why the file could not be read
     */
    Optional<LogSettings> poll(Consumer<String> problems) {
        if (file == null) {
            return Optional.empty();
        }
        Optional<Map<String, String>> entries = file.readIfChanged(problems);
        if (entries.isEmpty()) {
            return Optional.empty();
        }
        LogSettings next = LogSettings.parse(system, entries.get(), settings);
        settings = next;
        return Optional.of(next);
    }

    /** The warnings of the settings in force that were not returned for the settings before them. */
    List<String> newWarnings() {
        Set<String> before = warned;
        List<String> current = settings.warnings();
        warned = Set.copyOf(current);
        List<String> fresh = new ArrayList<>();
        for (String warning : current) {
            if (!before.contains(warning)) {
                fresh.add(warning);
            }
        }
        return fresh;
    }
}
