package io.troupe.itests;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.locks.LockSupport;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;

import io.troupe.testsupport.Await;

/**
 * The folder the host watches for plugin jars, as a user (or a deployment tool) writes to it: whole
 * jars moved in atomically, jars written slowly in place, garbage, deletions.
 *
 * <p><b>Threading:</b> immutable; blocks the calling test thread only. Runs inside the framework.
 */
final class DeployFolder {

    /** The framework property the host reads the folder from. */
    static final String DIR_PROPERTY = "troupe.deploy.dir";
    /** How often the host looks at the folder (the tests configure it). */
    static final Duration POLL = Duration.ofMillis(TroupeFramework.DEPLOY_POLL_MILLIS);

    private final Path folder;

    private DeployFolder(Path folder) {
        this.folder = folder;
    }

    /** The folder of the framework that {@code context} belongs to; fails if it has none. */
    static DeployFolder of(BundleContext context) {
        String dir = context.getProperty(DIR_PROPERTY);
        if (dir == null || !Files.isDirectory(Path.of(dir))) {
            throw new AssertionError("framework property " + DIR_PROPERTY + " names no directory: " + dir);
        }
        return new DeployFolder(Path.of(dir));
    }

    Path path(String file) {
        return folder.resolve(file);
    }

    /**
     * Writes {@code jar} to a hidden {@code .<file>.part} (which the host ignores) and moves it over
     * {@code file} in one rename, as a careful deployment tool does: the host never sees a partial jar.
     */
    void deploy(String file, byte[] jar) throws IOException {
        Path part = folder.resolve("." + file + ".part");
        Files.write(part, jar);
        Files.move(part, folder.resolve(file), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * Writes {@code jar} in place in two halves with {@code pause} between them, as a slow copy over
     * the network does; {@code whileHalfWritten} runs during the pause, after it.
     */
    void writeSlowly(String file, byte[] jar, Duration pause, Runnable whileHalfWritten) throws IOException {
        int half = jar.length / 2;
        try (OutputStream out = Files.newOutputStream(folder.resolve(file), StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            out.write(jar, 0, half);
            out.flush();
            pause(pause);
            whileHalfWritten.run();
            out.write(jar, half, jar.length - half);
        }
    }

    /** Overwrites {@code file} in place with {@code content}, in one write. */
    void overwrite(String file, byte[] content) throws IOException {
        Files.write(folder.resolve(file), content);
    }

    void delete(String file) throws IOException {
        Files.deleteIfExists(folder.resolve(file));
    }

    /**
     * Deletes every file in the folder, and waits until the host uninstalled what it installed from
     * it; then the host's status files ({@code .status/}) go too.
     */
    void clear(BundleContext context) throws IOException {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(folder)) {
            for (Path file : files) {
                if (!Files.isDirectory(file)) {
                    Files.deleteIfExists(file);
                }
            }
        }
        Await.until("no bundle from " + folder + " is installed", () -> installedFromHere(context).isEmpty(),
                () -> installedFromHere(context).toString());
        Path status = folder.resolve(".status");
        if (Files.isDirectory(status)) {
            try (DirectoryStream<Path> files = Files.newDirectoryStream(status)) {
                for (Path file : files) {
                    Files.deleteIfExists(file);
                }
            }
            Files.deleteIfExists(status);
        }
    }

    /**
     * Waits until the host reported its outcome for {@code file} holding {@code jar} (the status file
     * of the deploy folder names the jar's SHA-256, written at or after {@code since}) and returns the
     * status.
     */
    Properties awaitOutcome(String file, byte[] jar, Instant since, Duration timeout)
            throws Exception {
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(jar));
        Path status = folder.resolve(".status").resolve(file);
        Properties[] found = new Properties[1];
        Await.until("the host's outcome for deploy/" + file, timeout, () -> {
            Properties read = new Properties();
            try (InputStream in = Files.newInputStream(status)) {
                read.load(in);
            } catch (IOException e) {
                return false; // not written yet
            }
            boolean ours = sha.equals(read.getProperty("sha256"))
                    && !Instant.parse(read.getProperty("time")).isBefore(since);
            found[0] = ours ? read : null;
            return ours;
        }, () -> status + " does not name this jar yet");
        return found[0];
    }

    /** The bundles installed from this folder. */
    List<Bundle> installedFromHere(BundleContext context) {
        String prefix = folder.toUri().toString();
        return Arrays.stream(context.getBundles()).filter(b -> b.getLocation().startsWith(prefix)).toList();
    }

    /**
     * Lets {@code duration} pass. Not a synchronisation: the tests use it where the passing of time
     * is the scenario (a writer that stalls, a load without swaps), never to wait for the host.
     */
    static void pause(Duration duration) {
        long deadline = System.nanoTime() + duration.toNanos();
        for (long left = duration.toNanos(); left > 0; left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
            if (Thread.currentThread().isInterrupted()) {
                throw new AssertionError("interrupted while letting " + duration + " pass");
            }
        }
    }
}
