package io.troupe.cluster.sync;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What this node applied or published of each synchronised file, kept in {@code data/cluster-sync.properties}
 * so that a node that restarts knows which of its files changed while it was away and which versions of the
 * cluster it has not applied yet. One line per file: {@code deploy/<name>=<version> <sha256>}, or
 * {@code <version> -} once it is deleted.
 *
 * <pre>
 * deploy/counter.jar=3 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
 * etc/io.troupe.tenant-acme.cfg=2 -
 * </pre>
 *
 * The file is replaced whole (a temporary file renamed into place) on every change; a file that cannot be
 * read is logged and treated as empty (every local file then counts as new: see {@link FolderSync}).
 *
 * <p><b>Threading:</b> confined to the sync thread (and {@link FolderSync#start} before it runs).
 */
final class SyncLedger {

    /** What was applied of one file. {@code sha} is {@code null} when the file is deleted. */
    record Applied(long version, String sha) {
    }

    private static final Logger LOG = LoggerFactory.getLogger(SyncLedger.class);

    private final Path file;
    private final Map<String, Applied> applied = new HashMap<>();

    SyncLedger(Path file) {
        this.file = file;
    }

    /** Reads the file, if any. */
    void load() {
        Properties lines = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            lines.load(in);
        } catch (NoSuchFileException e) {
            return;
        } catch (IOException | IllegalArgumentException e) {
            LOG.warn("Cannot read {} ({}): every local file counts as new to the cluster", file, e.toString());
            return;
        }
        for (String key : lines.stringPropertyNames()) {
            String[] parts = lines.getProperty(key).trim().split(" ");
            try {
                applied.put(key, new Applied(Long.parseLong(parts[0]), parts.length < 2 || parts[1].equals("-")
                        ? null : parts[1]));
            } catch (NumberFormatException e) {
                LOG.warn("Ignoring the line of {} in {}: '{}' is not '<version> <sha256>'", key, file,
                        lines.getProperty(key));
            }
        }
    }

    /** What was applied of {@code key}, or {@code null} when nothing was. */
    Applied get(String key) {
        return applied.get(key);
    }

    Map<String, Applied> all() {
        return applied;
    }

    /** Records and saves that version {@code version} of {@code key} is applied here. */
    void put(String key, long version, String sha) {
        Applied now = new Applied(version, sha);
        if (!now.equals(applied.put(key, now))) {
            save();
        }
    }

    private void save() {
        Properties lines = new Properties();
        applied.forEach((key, value) -> lines.setProperty(key, value.version() + " "
                + (value.sha() == null ? "-" : value.sha())));
        try {
            Files.createDirectories(file.getParent());
            Path part = file.resolveSibling("." + file.getFileName() + ".part");
            try (OutputStream out = Files.newOutputStream(part)) {
                lines.store(out, "What this node applied of the cluster's files (written by the cluster sync)");
            }
            Files.move(part, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            LOG.warn("Cannot save {} ({}): after a restart this node may publish again what it applied", file,
                    e.toString());
        }
    }
}
