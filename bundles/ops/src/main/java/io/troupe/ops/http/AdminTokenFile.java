package io.troupe.ops.http;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The file holding the admin token ({@code tokenFile} of {@code etc/io.troupe.http.cfg}): its first line,
 * without surrounding blanks, is the token.
 *
 * <p>{@link #createIfAbsent()} writes a new random token ({@link AdminToken#generate()}) into a file only its
 * owner may read and write (0600 where the file system has POSIX permissions), its folder created with it;
 * an existing file is never overwritten. {@link #current()} looks at the file's modification time, size and
 * identity at each call and reads it again when one changed, so that an operator who writes a new token
 * (or replaces the file) is obeyed from the next request, with no restart. A file that is missing, blank or
 * holds a token too short is logged once per change at ERROR, and refuses every request until fixed; a file
 * that others may read is logged once at WARN.
 *
 * <p><b>Threading:</b> {@link #current()} from any thread (the servlet container's): the last reading is
 * published through a volatile field, and readings are made one at a time under this object's lock.
 */
public final class AdminTokenFile {

    private static final Logger LOG = LoggerFactory.getLogger(AdminTokenFile.class);
    private static final Set<PosixFilePermission> OWNER_ONLY =
            EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);

    private final Path file;
    private volatile Reading reading = new Reading(null, null, -1, null, "not read yet");

    /** The token file {@code file} (absolute). */
    public AdminTokenFile(Path file) {
        this.file = Objects.requireNonNull(file, "file");
    }

    /** The file's path. */
    public Path path() {
        return file;
    }

    /**
     * Writes a new random token into the file when there is none (0600, its folder created as needed).
     *
     * @return whether it wrote one
     * @throws IOException when the file cannot be created
     */
    public boolean createIfAbsent() throws IOException {
        if (Files.exists(file)) {
            return false;
        }
        Path folder = file.getParent();
        if (folder != null) {
            Files.createDirectories(folder);
        }
        boolean posix = Files.getFileStore(folder == null ? file.toAbsolutePath().getParent() : folder)
                .supportsFileAttributeView("posix");
        try {
            if (posix) {
                Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
            } else {
                Files.createFile(file);
            }
        } catch (FileAlreadyExistsException e) {
            return false; // written by someone else meanwhile: theirs stands
        }
        if (posix) {
            Files.setPosixFilePermissions(file, OWNER_ONLY); // whatever the umask took away or added
        }
        try (Writer writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            writer.write(AdminToken.generate());
            writer.write('\n');
        }
        return true;
    }

    /** The token the file holds now, or empty when it holds none that can be used (logged). */
    public Optional<AdminToken> current() {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (IOException e) {
            attributes = null;
        }
        Reading last = reading;
        if (last.sameFile(attributes)) {
            return Optional.ofNullable(last.token);
        }
        synchronized (this) {
            last = reading;
            if (!last.sameFile(attributes)) {
                last = read(attributes);
                reading = last;
            }
            return Optional.ofNullable(last.token);
        }
    }

    /** Why {@link #current()} gives no token, or null when it gives one. */
    public String problem() {
        current();
        return reading.problem;
    }

    private Reading read(BasicFileAttributes attributes) {
        Reading before = reading;
        Reading next;
        if (attributes == null) {
            next = new Reading(null, null, -1, null, "missing");
        } else {
            next = parse(attributes);
        }
        if (next.problem != null && !next.problem.equals(before.problem)) {
            LOG.error("Admin token file {}: {}; the HTTP endpoint refuses every request but /health until it holds "
                    + "a token of at least {} characters on its first line", file, next.problem, AdminToken.MIN_LENGTH);
        } else if (next.problem == null && before.token != null) {
            LOG.info("Admin token file {} changed: the new token applies from now on", file);
        }
        if (next.problem == null) {
            warnIfShared();
        }
        return next;
    }

    private Reading parse(BasicFileAttributes attributes) {
        String line;
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            line = reader.readLine();
        } catch (NoSuchFileException e) {
            return new Reading(null, null, -1, null, "missing");
        } catch (IOException e) {
            return new Reading(attributes.lastModifiedTime(), attributes.fileKey(), attributes.size(), null,
                    "cannot be read (" + e.getMessage() + ")");
        }
        String text = line == null ? "" : line.strip();
        if (text.isEmpty()) {
            return new Reading(attributes.lastModifiedTime(), attributes.fileKey(), attributes.size(), null,
                    "its first line is blank");
        }
        try {
            return new Reading(attributes.lastModifiedTime(), attributes.fileKey(), attributes.size(),
                    AdminToken.of(text), null);
        } catch (IllegalArgumentException e) {
            return new Reading(attributes.lastModifiedTime(), attributes.fileKey(), attributes.size(), null,
                    "the token " + e.getMessage());
        }
    }

    private void warnIfShared() {
        try {
            Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
            if (!OWNER_ONLY.containsAll(permissions)) {
                LOG.warn("Admin token file {} is readable or writable by others ({}): chmod 600 it", file,
                        PosixFilePermissions.toString(permissions));
            }
        } catch (UnsupportedOperationException | IOException e) {
            // no POSIX permissions here: nothing to say
        }
    }

    /** One reading of the file: what identified it, and its token or why there is none. Immutable. */
    private record Reading(FileTime modified, Object key, long size, AdminToken token, String problem) {

        boolean sameFile(BasicFileAttributes attributes) {
            if (attributes == null) {
                return modified == null && "missing".equals(problem);
            }
            return attributes.lastModifiedTime().equals(modified) && attributes.size() == size
                    && Objects.equals(attributes.fileKey(), key);
        }
    }
}
