package io.troupe.host.deploy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Properties;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells whoever put a jar into the deploy folder what became of it, in files beside it, so that a
 * copy has a result that a person and a script can read:
 *
 * <ul>
 *   <li>{@code deploy/.status/<file>}, for tools ({@code troupe:deploy}, {@code troupe-client
 *       deploy}): a properties file with {@code file}, {@code sha256} (of the bytes judged),
 *       {@code outcome} ({@value #RUNNING}, {@value #ROLLED_BACK}: the update was refused and the
 *       previous revision runs, or {@value #FAILED}: nothing from the jar runs), {@code symbolicName},
 *       {@code version}, {@code runningVersion} (absent when nothing runs), {@code reason} (absent
 *       when running) and {@code time} (ISO-8601, UTC);</li>
 *   <li>{@code deploy/<file>.failed}, for people, while the jar is refused: what was refused, why,
 *       and what runs instead. It goes when a jar of that name runs, or the jar is deleted.</li>
 * </ul>
 *
 * Each file is written to a temporary file and renamed into place, so a reader never sees half of
 * one; the marker is written (or deleted) before the status, so a tool that read the status finds
 * the marker as it says. A tool that renamed a jar into place at instant T waits for a status whose {@code sha256} is
 * the jar's and whose {@code time} is not before T.
 *
 * <p><b>Threading:</b> the deployer thread only.
 */
final class DeployOutcomes {

    static final String RUNNING = "running";
    static final String ROLLED_BACK = "rolled-back";
    static final String FAILED = "failed";
    /** The hidden folder of the status files, inside the deploy folder. */
    static final String STATUS_FOLDER = ".status";
    /** The extension of the marker beside a refused jar. */
    static final String FAILED_EXTENSION = ".failed";

    private static final Logger LOG = LoggerFactory.getLogger(DeployOutcomes.class);

    private final Path folder;

    DeployOutcomes(Path folder) {
        this.folder = folder;
    }

    /**
     * The jar {@code snapshot} of {@code deploy/file} runs, as {@code symbolicName} {@code version}.
     */
    void running(String file, Path snapshot, String symbolicName, String version) {
        delete(folder.resolve(file + FAILED_EXTENSION)); // before the status, which tools wait for
        write(file, digest(snapshot), RUNNING, symbolicName, version, version, null, Instant.now());
    }

    /**
     * The jar was refused.
     *
     * @param outcome        {@value #ROLLED_BACK} or {@value #FAILED}
     * @param symbolicName   the jar's, or {@code null} when it could not be read
     * @param runningVersion the version of the bundle of this file that runs instead, {@code null} if none
     */
    void refused(String file, Path snapshot, String outcome, String symbolicName, String version,
                 String runningVersion, String reason) {
        String sha = digest(snapshot);
        Instant time = Instant.now();
        String what = symbolicName == null ? "deploy/" + file : symbolicName + " " + version;
        String text = what + " was rejected: " + reason + "\n"
                + "running: " + (runningVersion == null ? "nothing" : symbolicName + " " + runningVersion) + "\n"
                + "sha256: " + sha + "\n"
                + "time: " + time + "\n";
        try { // the marker first: a tool that saw the status finds it
            replace(folder.resolve(file + FAILED_EXTENSION), out -> out.write(text.getBytes(StandardCharsets.UTF_8)));
        } catch (IOException e) {
            LOG.warn("Cannot write deploy/{}{}: {}", file, FAILED_EXTENSION, e.toString());
        }
        write(file, sha, outcome, symbolicName, version, runningVersion, reason, time);
    }

    /** The jar was deleted: its outcome goes with it. */
    void forget(String file) {
        delete(folder.resolve(file + FAILED_EXTENSION));
        delete(folder.resolve(STATUS_FOLDER).resolve(file));
    }

    private void write(String file, String sha, String outcome, String symbolicName, String version,
                       String runningVersion, String reason, Instant time) {
        Properties status = new Properties();
        status.setProperty("file", file);
        status.setProperty("sha256", sha);
        status.setProperty("outcome", outcome);
        putIfPresent(status, "symbolicName", symbolicName);
        putIfPresent(status, "version", version);
        putIfPresent(status, "runningVersion", runningVersion);
        putIfPresent(status, "reason", reason);
        status.setProperty("time", time.toString());
        try {
            Path dir = Files.createDirectories(folder.resolve(STATUS_FOLDER));
            replace(dir.resolve(file), out -> status.store(out, "What Troupe made of deploy/" + file));
        } catch (IOException e) {
            LOG.warn("Cannot write the status of deploy/{}: {}", file, e.toString());
        }
    }

    private static void putIfPresent(Properties properties, String key, String value) {
        if (value != null) {
            properties.setProperty(key, value);
        }
    }

    private interface Writing {
        void to(OutputStream out) throws IOException;
    }

    private static void replace(Path target, Writing writing) throws IOException {
        Path part = target.resolveSibling("." + target.getFileName() + ".part");
        try (OutputStream out = Files.newOutputStream(part)) {
            writing.to(out);
        }
        Files.move(part, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static void delete(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            LOG.warn("Cannot delete {}: {}", path, e.toString());
        }
    }

    /** The SHA-256 of the file, lowercase hex; empty when it cannot be read. */
    static String digest(Path path) {
        try (InputStream in = Files.newInputStream(path)) {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[64 * 1024];
            for (int n; (n = in.read(buffer)) > 0; ) {
                sha.update(buffer, 0, n);
            }
            return HexFormat.of().formatHex(sha.digest());
        } catch (IOException | NoSuchAlgorithmException e) {
            return "";
        }
    }
}
