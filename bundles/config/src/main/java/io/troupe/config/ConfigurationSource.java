package io.troupe.config;

import java.net.URI;
import java.util.Map;

/**
 * Where a configuration came from, for error messages: the file FileInstall read it from (its
 * {@value #FILE_PROPERTY} property, a {@code file:} URL), else its PID, else a description (the
 * framework properties, for example).
 *
 * <p><b>Threading:</b> immutable; any thread.
 *
 * @param path        the file's path, or {@code null} when the configuration has no file
 * @param pid         the configuration's PID, or {@code null} for one not (yet) in ConfigAdmin
 * @param description what to call a source that is neither, or {@code null}
 */
public record ConfigurationSource(String path, String pid, String description) {

    /** Where FileInstall records the file a configuration came from (a {@code file:} URL). */
    public static final String FILE_PROPERTY = "felix.fileinstall.filename";

    /** The source of the configuration {@code pid} with {@code properties}. */
    public static ConfigurationSource of(String pid, Map<String, ?> properties) {
        return new ConfigurationSource(pathOf(properties.get(FILE_PROPERTY)), pid, null);
    }

    /** A source that is no ConfigAdmin configuration, e.g. {@code framework properties (etc/config.properties)}. */
    public static ConfigurationSource describedAs(String description) {
        return new ConfigurationSource(null, null, description);
    }

    /** The last segment of the file's path, or {@code null} without a file. */
    public String fileName() {
        if (path == null) {
            return null;
        }
        int slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
        return path.substring(slash + 1);
    }

    /** {@code file <path>}, {@code configuration <pid>}, the description, or {@code configuration (new)}. */
    @Override
    public String toString() {
        if (path != null) {
            return "file " + path;
        }
        if (pid == null && description != null) {
            return description;
        }
        return "configuration " + (pid == null ? "(new)" : pid);
    }

    /** The path in a {@value #FILE_PROPERTY} value (a {@code file:} URL, or a plain path), or {@code null}. */
    static String pathOf(Object property) {
        if (!(property instanceof String url) || url.isBlank()) {
            return null;
        }
        try {
            String path = URI.create(url.trim()).getPath();
            if (path != null) {
                return path;
            }
        } catch (IllegalArgumentException e) {
            // not a URL: a path as it is (C:\troupe\etc\...)
        }
        return url.trim();
    }
}
