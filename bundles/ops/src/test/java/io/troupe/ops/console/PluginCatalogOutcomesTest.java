package io.troupe.ops.console;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.troupe.client.deploy.DeployFolder;
import io.troupe.client.deploy.DeployStatus;

/**
 * {@link PluginCatalog#outcomes()}: the host's status files, read again only when the host has replaced one
 * (it renames a new file over the old), never for a file that is the same as at the last look.
 */
class PluginCatalogOutcomesTest {

    private static final String SHA = "a".repeat(64);

    @TempDir
    Path deploy;

    @Test
    void aStatusFileIsReadOnceAndAgainOnlyWhenTheHostReplacesIt() throws IOException {
        Path statuses = Files.createDirectories(deploy.resolve(DeployStatus.FOLDER));
        PluginCatalog catalog = new PluginCatalog(null, new DeployFolder(deploy), null, null);
        replace(statuses, "kv.jar", "running", "1.0.0");
        assertEquals(List.of("kv.jar running 1.0.0"), describe(catalog.outcomes()));

        // the same file (same inode, size and time) with other bytes: not read again
        Path file = statuses.resolve("kv.jar");
        FileTime time = Files.getLastModifiedTime(file);
        Files.writeString(file, Files.readString(file).replace("1.0.0", "9.9.9"));
        Files.setLastModifiedTime(file, time);
        assertEquals(List.of("kv.jar running 1.0.0"), describe(catalog.outcomes()));

        // the host's way: a new file renamed over the old one
        replace(statuses, "kv.jar", "rolled-back", "1.0.1");
        replace(statuses, "counter.jar", "failed", "2.0.0");
        assertEquals(List.of("counter.jar failed 2.0.0", "kv.jar rolled-back 1.0.1"), describe(catalog.outcomes()));

        Files.delete(statuses.resolve("kv.jar"));
        assertEquals(List.of("counter.jar failed 2.0.0"), describe(catalog.outcomes()));
    }

    /** Writes a status as the host does: into a dot-file, then renamed over the status. */
    private static void replace(Path statuses, String jar, String outcome, String version) throws IOException {
        Path part = statuses.resolve("." + jar + ".part");
        Files.writeString(part, "file=" + jar + "\nsha256=" + SHA + "\noutcome=" + outcome + "\nversion=" + version
                + "\ntime=2026-12-04T15:00:00Z\n", StandardCharsets.UTF_8);
        Files.move(part, statuses.resolve(jar), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static List<String> describe(List<DeployStatus> outcomes) {
        return outcomes.stream().map(s -> s.file() + " " + s.outcome() + " " + s.version().orElse("?")).toList();
    }
}
