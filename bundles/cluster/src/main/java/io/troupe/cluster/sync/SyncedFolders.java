package io.troupe.cluster.sync;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * Which files of the installation are synchronised, and how their keys in {@value FolderSync#FILES} map to
 * paths: {@code deploy/<name>.jar} (plugin jars) and {@code etc/io.troupe.tenant-<id>.cfg} (tenant files).
 * Hidden files (a name starting with {@code '.'}, such as the temporary files written here and the host's
 * {@code deploy/.status}), the host's {@code .failed} markers and every other file are left alone. A key
 * received from the cluster that names anything else (another folder, a path, a hidden file) is refused.
 *
 * <p><b>Threading:</b> immutable; the sync thread does the file work.
 */
final class SyncedFolders {

    static final String DEPLOY = "deploy/";
    static final String ETC = "etc/";
    static final String TENANT_PREFIX = "io.troupe.tenant-";

    /** A file's size and modification time: a file whose stamp did not change is not read again. */
    record FileStamp(long size, long modifiedMillis) {

        /** The stamp of {@code path}, {@code null} when it is gone. */
        static FileStamp of(Path path) {
            try {
                BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
                return new FileStamp(attributes.size(), attributes.lastModifiedTime().toMillis());
            } catch (IOException e) {
                return null;
            }
        }
    }

    private final Path home;
    private final boolean deploy;
    private final boolean tenants;

    SyncedFolders(Path home, boolean deploy, boolean tenants) {
        this.home = home;
        this.deploy = deploy;
        this.tenants = tenants;
    }

    /** What is synchronised, for the log. */
    String describe() {
        // Path.resolve drops the folder's trailing '/': put it back before the pattern
        return (deploy ? home.resolve(DEPLOY) + "/*.jar" : "") + (deploy && tenants ? " and " : "")
                + (tenants ? home.resolve(ETC) + "/" + TENANT_PREFIX + "*.cfg" : "");
    }

    /** Whether {@code key} names a file this node synchronises. */
    boolean synced(String key) {
        if (key.startsWith(DEPLOY)) {
            return deploy && isJar(key.substring(DEPLOY.length()));
        }
        if (key.startsWith(ETC)) {
            return tenants && isTenantFile(key.substring(ETC.length()));
        }
        return false;
    }

    static boolean isDeploy(String key) {
        return key.startsWith(DEPLOY);
    }

    /** The file of {@code key}, which {@link #synced} accepted. */
    Path pathOf(String key) {
        return home.resolve(key);
    }

    /** The keys of the synchronised files present now; throws when a folder exists but cannot be listed. */
    List<String> present() throws IOException {
        List<String> keys = new ArrayList<>();
        if (deploy) {
            list(DEPLOY, keys);
        }
        if (tenants) {
            list(ETC, keys);
        }
        return keys;
    }

    private void list(String folder, List<String> keys) throws IOException {
        Path dir = home.resolve(folder);
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
            for (Path path : stream) {
                String key = folder + path.getFileName();
                if (synced(key) && Files.isRegularFile(path)) {
                    keys.add(key);
                }
            }
        }
    }

    /** Whether the folder of {@code key} can be listed (an unreadable folder is not an empty one). */
    boolean folderReadable(String key) {
        return Files.isDirectory(home.resolve(key.startsWith(DEPLOY) ? DEPLOY : ETC));
    }

    /**
     * Replaces the file of {@code key} with {@code content} at once: a hidden temporary file in the same
     * folder, renamed over it, so that the host and FileInstall never see half a file.
     */
    void write(String key, byte[] content) throws IOException {
        Path target = pathOf(key);
        Files.createDirectories(target.getParent());
        Path part = target.resolveSibling("." + target.getFileName() + ".sync.part");
        Files.write(part, content);
        try {
            Files.move(part, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            Files.deleteIfExists(part);
            throw e;
        }
    }

    /** Deletes the file of {@code key}; false when it was not there. */
    boolean delete(String key) throws IOException {
        return Files.deleteIfExists(pathOf(key));
    }

    /** The content of the file of {@code key}, {@code null} when it is gone. */
    byte[] read(String key) throws IOException {
        try {
            return Files.readAllBytes(pathOf(key));
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    private static boolean isJar(String name) {
        return plain(name) && name.endsWith(".jar") && name.length() > 4;
    }

    private static boolean isTenantFile(String name) {
        return plain(name) && name.startsWith(TENANT_PREFIX) && name.endsWith(".cfg")
                && name.length() > TENANT_PREFIX.length() + 4;
    }

    private static boolean plain(String name) {
        return !name.isEmpty() && !name.startsWith(".") && name.indexOf('/') < 0 && name.indexOf('\\') < 0
                && name.indexOf('\0') < 0;
    }
}
