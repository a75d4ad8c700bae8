package io.troupe.ops.console;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.client.deploy.DeployStatus;

/**
 * The jars a rollback puts back. The host keeps only the jar that runs (its last good copy, to put back when
 * an update fails), not the one before, so the console keeps its own: each time the host reports a jar of
 * the deploy folder {@code running} with new bytes, the console copies those bytes (checked against the
 * status's SHA-256) into its bundle data area, and the copy that ran before becomes the {@linkplain #previous
 * previous revision}. Rolling back copies that previous jar over the deploy folder's file, the way
 * {@code troupe:update} does; the host then updates the bundle in place (the actors keep their state), and
 * the two copies trade places, so a second rollback returns to the newer jar.
 *
 * <pre>
 *   console data area: revisions/counter.jar/&lt;sha256&gt;.jar   at most two per jar: current and previous
 *
 *   running v1 (sha a) ──► current a
 *   running v2 (sha b) ──► current b, previous a      rollback: deploy/counter.jar := a.jar
 *   running v1 (sha a) ──► current a, previous b
 * </pre>
 *
 * What the console did not see run has no copy: after a restart of Troupe, the first update of a plugin is
 * the first that can be rolled back. A jar whose file is deleted is forgotten with its copies.
 *
 * <p><b>Threading:</b> any thread; the methods synchronise on this object. Copies are made on the caller's
 * thread (the console's sampler), never on a servlet's.
 */
final class PluginRevisions {

    private static final Logger LOG = LoggerFactory.getLogger(PluginRevisions.class);

    /**
     * One kept jar.
     *
     * @param sha256 the digest of its bytes
     * @param jar    the copy in the console's data area
     */
    record Kept(String symbolicName, String version, String sha256, Path jar) {
    }

    private record Pair(Kept current, Kept previous) {
    }

    private final Path store;
    private final Map<String, Pair> byFile = new HashMap<>();

    /**
     * @param store the folder of the copies, in the console's data area; emptied, since what it held is not
     *              known to run any more
     */
    PluginRevisions(Path store) throws IOException {
        this.store = Objects.requireNonNull(store, "store");
        deleteTree(store);
        Files.createDirectories(store);
    }

    /**
     * The host runs the jar {@code status} judged: keeps a copy of its bytes from {@code deployFolder} unless
     * they are the current copy already; the current one becomes the previous one.
     *
     * @return whether a new copy was kept
     */
    synchronized boolean running(Path deployFolder, DeployStatus status) {
        if (status.outcome() != DeployStatus.Outcome.RUNNING) {
            return false;
        }
        String file = status.file();
        Pair pair = byFile.get(file);
        if (pair != null && pair.current().sha256().equals(status.sha256())) {
            return false;
        }
        Kept kept;
        try {
            kept = copy(deployFolder.resolve(file), file, status);
        } catch (IOException e) {
            LOG.warn("Cannot keep a copy of deploy/{} for a later rollback: {}", file, e.toString());
            return false;
        }
        if (kept == null) {
            return false; // the file holds other bytes by now: their status comes next
        }
        if (pair != null && pair.previous() != null && !pair.previous().sha256().equals(kept.sha256())) {
            delete(pair.previous().jar());
        }
        byFile.put(file, new Pair(kept, pair == null ? null : pair.current()));
        return true;
    }

    /** The jar that ran before the current one of {@code file}, if the console kept it. */
    synchronized Optional<Kept> previous(String file) {
        Pair pair = byFile.get(file);
        return pair == null ? Optional.empty() : Optional.ofNullable(pair.previous());
    }

    /** The jar {@code file} was deleted: its copies go. */
    synchronized void forget(String file) {
        Pair pair = byFile.remove(file);
        if (pair != null) {
            deleteTree(store.resolve(file));
        }
    }

    private Kept copy(Path source, String file, DeployStatus status) throws IOException {
        Path folder = Files.createDirectories(store.resolve(file));
        Path part = folder.resolve(".copy.part");
        MessageDigest sha = sha256();
        try (InputStream in = new DigestInputStream(Files.newInputStream(source), sha)) {
            Files.copy(in, part, StandardCopyOption.REPLACE_EXISTING);
        } catch (NoSuchFileException e) {
            return null;
        }
        String digest = java.util.HexFormat.of().formatHex(sha.digest());
        if (!digest.equals(status.sha256())) {
            Files.deleteIfExists(part);
            return null;
        }
        Path target = folder.resolve(digest + ".jar");
        Files.move(part, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return new Kept(status.symbolicName().orElse(null), status.version().orElse(null), digest, target);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    private static void delete(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            LOG.warn("Cannot delete {}: {}", path, e.toString());
        }
    }

    private static void deleteTree(Path path) {
        if (Files.isDirectory(path)) {
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(path)) {
                for (Path entry : entries) {
                    deleteTree(entry);
                }
            } catch (IOException e) {
                LOG.warn("Cannot list {}: {}", path, e.toString());
            }
        }
        delete(path);
    }
}
