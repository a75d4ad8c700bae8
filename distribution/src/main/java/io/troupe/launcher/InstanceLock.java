package io.troupe.launcher;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Makes sure only one Troupe runs from an installation: a second one would clean the framework cache
 * under the first (Felix's own cache lock does not stop it). The lock is {@code data/troupe.lock},
 * outside the cache, held until the process ends; the operating system releases it however the
 * process ends, so a stale file never blocks a start. The file holds the process id, one line, so that
 * {@code bin/troupe stop} knows whom to signal.
 *
 * <p><b>Threading:</b> acquired once by the main thread; the lock then belongs to the process.
 */
final class InstanceLock {

    private final FileChannel channel;
    private final FileLock lock;

    private InstanceLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Locks {@code layout}'s data directory for this process.
     *
     * @throws LauncherException if another process holds the lock, or the lock file cannot be created
     */
    static InstanceLock acquire(InstallLayout layout) throws LauncherException {
        Path file = layout.data().resolve("troupe.lock");
        FileChannel channel;
        try {
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new LauncherException("cannot create the lock file " + file + ": " + LauncherException.describe(e), e);
        }
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (IOException | OverlappingFileLockException e) {
            lock = null;
        }
        if (lock == null) {
            closeQuietly(channel);
            throw new LauncherException("Troupe is already running from " + layout.home() + " (" + file
                    + " is locked); stop it first, or run another copy from another directory");
        }
        try {
            channel.truncate(0);
            channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)),
                    0);
            channel.force(false);
        } catch (IOException e) {
            // the lock holds without it; only `bin/troupe stop` needs the id
        }
        return new InstanceLock(channel, lock);
    }

    /** Whether the lock is still held; it is until the process ends. */
    boolean isHeld() {
        return lock.isValid() && channel.isOpen();
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // the failure to lock is what matters
        }
    }
}
