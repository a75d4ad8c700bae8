package io.troupe.host.log;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * {@code etc/io.troupe.log.cfg}, watched by polling: the logger thread asks every few seconds
 * whether its modification time or size changed, so logging depends neither on ConfigAdmin nor on
 * FileInstall, which start after it. A change is applied once the file has kept its new size and
 * modification time for one more poll, so that a file caught while an editor or a copy is still
 * writing it is not applied half-written (the first read, at startup, is applied at once). The file
 * uses Java properties syntax in UTF-8; keys and values are trimmed. A file that disappears counts as
 * empty: every key falls back to its system property or default.
 *
 * <p>Threading: not thread-safe; used by one thread at a time (the constructor's caller, then the
 * logger thread).
 */
final class LogConfigFile {

    private final Path path;
    /** The stamp of the file as last applied. */
    private Stamp applied = Stamp.ABSENT;
    /** A new stamp seen once, applied if the next poll sees it again; null when none. */
    private Stamp settling;
    private boolean firstRead = true;

    LogConfigFile(Path path) {
        this.path = path;
    }

    Path path() {
        return path;
    }

    /**
     * The entries of the file if it changed since it was last applied and has kept the change since
     * the previous call (the first call reads a file that exists at once), else empty. A file that
     * cannot be read is reported to {@code problems} once per change and leaves the current settings
     * in force.
     */
    Optional<Map<String, String>> readIfChanged(Consumer<String> problems) {
        boolean first = firstRead;
        firstRead = false;
        Stamp now = stamp();
        if (now.equals(applied)) {
            settling = null;
            return Optional.empty();
        }
        if (!first && !now.equals(settling)) {
            settling = now; // changed since the last look: it may still be being written
            return Optional.empty();
        }
        settling = null;
        applied = now;
        if (now == Stamp.ABSENT) {
            return Optional.of(Map.of());
        }
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException | IllegalArgumentException e) {
            problems.accept("Cannot read " + path + " (" + e + "); the logging settings stay as they were");
            return Optional.empty();
        }
        Map<String, String> entries = new TreeMap<>();
        for (String key : properties.stringPropertyNames()) {
            entries.put(key.trim(), properties.getProperty(key).trim());
        }
        return Optional.of(entries);
    }

    private Stamp stamp() {
        try {
            BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
            return new Stamp(attributes.lastModifiedTime().toMillis(), attributes.size());
        } catch (IOException e) {
            return Stamp.ABSENT; // missing, or unreadable as good as missing
        }
    }

    private record Stamp(long modifiedMillis, long size) {
        static final Stamp ABSENT = new Stamp(Long.MIN_VALUE, -1);
    }
}
