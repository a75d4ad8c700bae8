package io.troupe.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Properties;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.stream.Stream;

/**
 * Writes the host's outcome of a deployed jar as the host's deploy watcher does (the file contract of
 * {@code deploy/.status/<file>} and {@code deploy/<file>.failed}), for tests of the tools that read
 * it without a running host: the shell's deploy commands and {@code troupe-client deploy}.
 *
 * <p><b>Threading:</b> stateless; each write replaces the status file atomically, so a reader on
 * another thread sees the old or the new status, never a part.
 */
public final class HostStatus {

    private HostStatus() {
    }

    /**
     * The host judged {@code deploy/<file>} as it is now: writes {@code .status/<file>} with its
     * digest and the instant {@code time}, and for {@code rolled-back} or {@code failed} the marker
     * {@code <file>.failed}; for {@code running} deletes the marker.
     *
     * @param outcome        {@code running}, {@code rolled-back} or {@code failed} (written as given)
     * @param runningVersion what runs from the file now, or null for nothing
     * @param reason         why it was refused, or null for {@code running}
     */
    public static void judge(Path deployDir, String file, String outcome, String symbolicName, String version,
            String runningVersion, String reason, Instant time) throws IOException {
        String sha256 = sha256(deployDir.resolve(file));
        Properties status = new Properties();
        status.setProperty("file", file);
        status.setProperty("sha256", sha256);
        status.setProperty("outcome", outcome);
        putIfNotNull(status, "symbolicName", symbolicName);
        putIfNotNull(status, "version", version);
        putIfNotNull(status, "runningVersion", runningVersion);
        putIfNotNull(status, "reason", reason);
        status.setProperty("time", time.toString());
        write(deployDir.resolve(".status").resolve(file), status);
        Path marker = deployDir.resolve(file + ".failed");
        if (outcome.equals("running")) {
            Files.deleteIfExists(marker);
        } else {
            Files.writeString(marker, symbolicName + " " + version + " was rejected: " + reason + "\n"
                    + "running: " + (runningVersion == null ? "nothing" : symbolicName + " " + runningVersion) + "\n"
                    + "sha256: " + sha256 + "\n" + "time: " + time + "\n");
        }
    }

    /**
     * Plays the host's deploy watcher once: judges every {@code *.jar} of {@code deployDir} whose
     * current bytes have no status yet, as {@link #judge} with the identity read from the jar's
     * manifest.
     *
     * @param runningVersion what runs after a refusal, or null for nothing; for {@code running}, the
     *                       jar's own version is written
     */
    public static void judgeNew(Path deployDir, String outcome, String runningVersion, String reason, Instant time)
            throws IOException {
        try (Stream<Path> files = Files.list(deployDir)) {
            for (Path jar : files.filter(HostStatus::isPluginJar).sorted().toList()) {
                String file = jar.getFileName().toString();
                if (!sha256(jar).equals(judgedDigest(deployDir, file))) {
                    Attributes manifest = manifest(jar);
                    String symbolicName = manifest.getValue("Bundle-SymbolicName");
                    String version = manifest.getValue("Bundle-Version");
                    judge(deployDir, file, outcome, symbolicName, version,
                            outcome.equals("running") ? version : runningVersion, reason, time);
                }
            }
        }
    }

    /** Writes {@code .status/<file>} with exactly {@code properties}, for tests of a malformed status. */
    public static void write(Path deployDir, String file, Properties properties) throws IOException {
        write(deployDir.resolve(".status").resolve(file), properties);
    }

    /** The lowercase hex SHA-256 of the file's bytes. */
    public static String sha256(Path file) throws IOException {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    private static void write(Path statusFile, Properties properties) throws IOException {
        Files.createDirectories(statusFile.getParent());
        Path temp = Files.createTempFile(statusFile.getParent(), ".tmp-", ".status");
        try (OutputStream out = Files.newOutputStream(temp)) {
            properties.store(out, null);
        }
        Files.move(temp, statusFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private static boolean isPluginJar(Path path) {
        String name = path.getFileName().toString();
        return name.endsWith(".jar") && !name.startsWith(".") && Files.isRegularFile(path);
    }

    /** The digest in {@code .status/<file>}, or null without one. */
    private static String judgedDigest(Path deployDir, String file) throws IOException {
        Path statusFile = deployDir.resolve(".status").resolve(file);
        if (!Files.exists(statusFile)) {
            return null;
        }
        Properties status = new Properties();
        try (InputStream in = Files.newInputStream(statusFile)) {
            status.load(in);
        }
        return status.getProperty("sha256");
    }

    private static Attributes manifest(Path jar) throws IOException {
        try (JarFile file = new JarFile(jar.toFile())) {
            Manifest manifest = file.getManifest();
            return manifest == null ? new Attributes() : manifest.getMainAttributes();
        }
    }

    private static void putIfNotNull(Properties properties, String key, String value) {
        if (value != null) {
            properties.setProperty(key, value);
        }
    }
}
