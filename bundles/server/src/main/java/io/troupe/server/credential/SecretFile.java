package io.troupe.server.credential;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Writes files that hold secrets (token hashes): owner-only ({@code rw-------}, 0600) wherever the file
 * system has POSIX permissions, and never half-written: the content goes to a temporary file in the same
 * directory ({@code .<name>.<random>.tmp}, which FileInstall's {@code .*\.cfg} filter ignores), created
 * 0600, then moved over the target.
 *
 * <p><b>Threading:</b> stateless; any thread. Two writers of one file: the last move wins whole.
 */
public final class SecretFile {

    /** {@code rw-------}. */
    public static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    private SecretFile() {
    }

    /** Replaces (or creates) {@code file} with {@code content}, atomically where the file system can. */
    public static void replace(Path file, String content) throws IOException {
        Path temporary = writeTemporary(file, content);
        try {
            try {
                Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    /**
     * Creates {@code file} with {@code content}.
     *
     * @throws FileAlreadyExistsException when it exists (it is left alone)
     */
    public static void create(Path file, String content) throws IOException {
        Path temporary = writeTemporary(file, content);
        try {
            Files.move(temporary, file); // no REPLACE_EXISTING: fails if the file exists
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    /** Whether {@code file}'s permissions let only its owner in (always true without POSIX permissions). */
    public static boolean isOwnerOnly(Path file) throws IOException {
        if (!supportsPosix(file)) {
            return true;
        }
        return Files.getPosixFilePermissions(file).equals(OWNER_ONLY);
    }

    private static Path writeTemporary(Path file, String content) throws IOException {
        Path directory = file.toAbsolutePath().getParent();
        Files.createDirectories(directory);
        FileAttribute<?>[] attributes = supportsPosix(directory)
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_ONLY)}
                : new FileAttribute<?>[0];
        Path temporary = Files.createTempFile(directory, "." + file.getFileName() + ".", ".tmp", attributes);
        try {
            Files.writeString(temporary, content, UTF_8);
            return temporary;
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(temporary);
            throw e;
        }
    }

    private static boolean supportsPosix(Path path) {
        return path.getFileSystem().supportedFileAttributeViews().contains("posix");
    }
}
