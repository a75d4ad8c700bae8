package io.troupe.host.log;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * {@code troupe.log} and its rolled predecessors {@code troupe.log.1} (newest) to
 * {@code troupe.log.<retention>} (oldest), written through a {@link FileChannel} in append mode.
 *
 * <p>Rolling: before a chunk that would take the file past {@code rollSizeBytes}, the others move up one
 * (the one past the retention count is deleted), the file is renamed to {@code .1} and a new empty file is
 * opened. Chunks hold whole records, so no record is split across files; a file exceeds the limit only when
 * a single chunk does, which with the default 50 MiB limit and a cap of at most a few MiB per segment does
 * not happen. A retention of 0 keeps no rolled file.
 *
 * <h2>When the file cannot be written</h2>
 * Failures never propagate; {@link #append} says whether the chunk reached the file, so that the caller
 * can put it elsewhere (stderr), and a {@link FailureEpisode} tells stderr once when the trouble starts and
 * once when it ends, with the number of records that missed the file.
 * <ul>
 * <li>A write the disk refuses (ENOSPC, EFBIG, EIO) loses its chunk from the file: the part of it that was
 *     written is cut off again, so that no half record stays in the file. Every later chunk is tried, so
 *     the file works again as soon as the disk takes writes.</li>
 * <li>The path stops naming the open file (the log folder was moved, deleted or replaced by a file, or the
 *     file was rotated away by another program): seen within {@value #CHECK_MILLIS} ms at a flush, the file
 *     is opened again at its path, its folders created if missing. While that fails (the folder is a file,
 *     no file descriptor is left, ...) nothing is open, chunks miss the file, and opening is tried again
 *     every {@value #RETRY_MILLIS} ms.</li>
 * <li>A roll whose renames fail (tried again after {@value #RETRY_MILLIS} ms) keeps writing the same file,
 *     which then grows; one whose new file cannot be opened leaves nothing open, as above.</li>
 * </ul>
 *
 * <p>Threading: one thread at a time, the holder of the logging I/O lock.
 */
final class RollingFile implements LogOutput {

    /** How often a flush checks that the path still names the open file. */
    static final long CHECK_MILLIS = 1000;
    /** How long after a failed open or roll the next one is tried. */
    static final long RETRY_MILLIS = 1000;

    private final Path file;
    private final FailureEpisode episode;
    private final LongSupplier nanoTime;
    /** Null while the file is not open: after a failed (re)open, or once closed. */
    private FileChannel channel;
    /** The identity (device and inode) of the open file, null where the file system has none. */
    private Object openKey;
    private long size;
    private long rollSizeBytes;
    private int retention;
    private boolean closed;
    /** Before this (nanoTime), no open or roll is tried again after one failed. */
    private long retryAt;
    private long nextCheck;
    /** The summary of an episode that just ended, until {@link #takeRecovery} returns it. */
    private String recovery;

    private RollingFile(Path file, long rollSizeBytes, int retention, Supplier<PrintStream> stderr,
            LongSupplier nanoTime) {
        this.file = file;
        this.rollSizeBytes = rollSizeBytes;
        this.retention = retention;
        this.nanoTime = nanoTime;
        this.episode = new FailureEpisode("log file " + file, "records go to stderr instead", stderr, nanoTime);
        long now = nanoTime.getAsLong();
        this.retryAt = now;
        this.nextCheck = now + TimeUnit.MILLISECONDS.toNanos(CHECK_MILLIS);
    }

    /**
     * Opens {@code file} for appending, creating it and its parent directories if needed.
     *
     * @param stderr where the start and end of a failure episode are told
     * @throws IOException if the directories or the file cannot be created or opened
     */
    static RollingFile open(Path file, long rollSizeBytes, int retention, Supplier<PrintStream> stderr)
            throws IOException {
        return open(file, rollSizeBytes, retention, stderr, System::nanoTime);
    }

    /** {@link #open(Path, long, int, Supplier)} with the clock of the check and retry periods. */
    static RollingFile open(Path file, long rollSizeBytes, int retention, Supplier<PrintStream> stderr,
            LongSupplier nanoTime) throws IOException {
        RollingFile opened = new RollingFile(file, rollSizeBytes, retention, Objects.requireNonNull(stderr, "stderr"),
                Objects.requireNonNull(nanoTime, "nanoTime"));
        opened.openAtPath();
        return opened;
    }

    /**
     * A log file that could not be opened ({@code why}, which the caller reports): nothing is open, chunks
     * miss the file, and opening it is tried again every {@value #RETRY_MILLIS} ms, as after losing it while
     * running; the episode's end is told as usual.
     */
    static RollingFile unopened(Path file, long rollSizeBytes, int retention, Supplier<PrintStream> stderr,
            LongSupplier nanoTime, IOException why) {
        RollingFile unopened = new RollingFile(file, rollSizeBytes, retention, Objects.requireNonNull(stderr,
                "stderr"), Objects.requireNonNull(nanoTime, "nanoTime"));
        unopened.retryAt = nanoTime.getAsLong() + TimeUnit.MILLISECONDS.toNanos(RETRY_MILLIS);
        unopened.episode.begin("cannot open it", why);
        return unopened;
    }

    Path file() {
        return file;
    }

    /** Applies to the next roll; live configuration. */
    void setLimits(long rollSizeBytes, int retention) {
        this.rollSizeBytes = rollSizeBytes;
        this.retention = retention;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
        append(bytes, offset, length);
    }

    /**
     * Writes {@code bytes[offset, offset + length)}, whole records.
     *
     * @return whether they are in the file; false when the file could not take them (the failure is
     *     counted in the episode), true also once closed (nothing is written then, and nothing is missed)
     */
    boolean append(byte[] bytes, int offset, int length) {
        if (closed) {
            return true;
        }
        long now = nanoTime.getAsLong();
        if (channel == null && (now - retryAt < 0 || !reopen(now))) {
            episode.failed("cannot open it", null, records(bytes, offset, length), length);
            return false;
        }
        if (size > 0 && size + length > rollSizeBytes && now - retryAt >= 0) {
            roll(now);
            if (channel == null) {
                episode.failed("cannot open it", null, records(bytes, offset, length), length);
                return false;
            }
        }
        long before = size;
        try {
            ByteBuffer chunk = ByteBuffer.wrap(bytes, offset, length);
            while (chunk.hasRemaining()) {
                size += channel.write(chunk);
            }
        } catch (IOException | RuntimeException e) {
            cutBackTo(before);
            episode.failed("cannot write it", e, records(bytes, offset, length), length);
            return false;
        }
        String ended = episode.succeeded();
        if (ended != null) {
            recovery = ended;
        }
        return true;
    }

    /**
     * The summary of the failure episode that the last successful {@link #append} ended, once; null when
     * none ended since the last call. The caller writes it into the file as a record of the logger.
     */
    String takeRecovery() {
        String ended = recovery;
        recovery = null;
        return ended;
    }

    /** Whether the file is failing now (an episode is going on). */
    boolean failing() {
        return episode.failing();
    }

    /**
     * With {@code force}, asks the OS to put the file on the device. Every {@value #CHECK_MILLIS} ms, also
     * checks that the path still names the open file, and opens it again at its path if not.
     */
    @Override
    public void flush(boolean force) {
        if (closed) {
            return;
        }
        if (force && channel != null) {
            try {
                channel.force(false);
            } catch (IOException | RuntimeException e) {
                episode.failed("cannot force it to disk", e, 0, 0);
            }
        }
        long now = nanoTime.getAsLong();
        if (now - nextCheck >= 0) {
            nextCheck = now + TimeUnit.MILLISECONDS.toNanos(CHECK_MILLIS);
            checkPath(now);
        }
    }

    @Override
    public void close() {
        closed = true;
        closeChannel();
    }

    /** The path of rolled file number {@code n}, {@code troupe.log.n}. */
    Path rolled(int n) {
        return file.resolveSibling(file.getFileName() + "." + n);
    }

    /** Opens the file at its path, as a new one if the path names another file or none. */
    private void openAtPath() throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            if (Files.exists(parent) && !Files.isDirectory(parent)) {
                throw new NotDirectoryException(parent + " (the log folder) is not a folder");
            }
            Files.createDirectories(parent);
        }
        FileChannel opened = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND);
        try {
            size = opened.size();
            openKey = keyOf(file);
        } catch (IOException | RuntimeException e) {
            opened.close();
            throw e;
        }
        channel = opened;
    }

    /** Opens the file again after it was lost; false (and the episode knows why) when it cannot. */
    private boolean reopen(long now) {
        try {
            openAtPath();
            return true;
        } catch (IOException | RuntimeException e) {
            retryAt = now + TimeUnit.MILLISECONDS.toNanos(RETRY_MILLIS);
            episode.failed("cannot open it", e, 0, 0);
            return false;
        }
    }

    /** Closes the open file if its path no longer names it, and opens the one at the path. */
    private void checkPath(long now) {
        if (channel == null || openKey == null) {
            return;
        }
        Object current;
        try {
            current = keyOf(file);
        } catch (IOException | RuntimeException e) {
            current = null; // gone, or its folder is
        }
        if (openKey.equals(current)) {
            return;
        }
        closeChannel();
        reopen(now);
    }

    private void roll(long now) {
        try {
            deleteBeyondRetention();
            for (int n = retention - 1; n >= 1; n--) {
                moveIfExists(rolled(n), rolled(n + 1));
            }
            if (retention >= 1) {
                Files.move(file, rolled(1), StandardCopyOption.REPLACE_EXISTING);
            } else {
                Files.deleteIfExists(file);
            }
        } catch (IOException | RuntimeException e) {
            // The renames failed: go on writing into the same file, which grows, and roll again later.
            retryAt = now + TimeUnit.MILLISECONDS.toNanos(RETRY_MILLIS);
            return;
        }
        closeChannel();
        reopen(now);
    }

    /** Cuts off what a failed write left of its chunk, so that no half record stays; best effort. */
    private void cutBackTo(long length) {
        try {
            if (channel.size() > length) {
                channel.truncate(length);
            }
        } catch (IOException | RuntimeException e) {
            // the file is in trouble anyway; a later successful write starts on a line of its own only if
            // this worked, which on a full disk it does (truncating frees blocks)
        }
        size = length;
    }

    private void closeChannel() {
        FileChannel open = channel;
        channel = null;
        openKey = null;
        if (open == null) {
            return;
        }
        try {
            open.close();
        } catch (IOException e) {
            // closing releases the descriptor even when it reports a failure of the last write
        }
    }

    /** Deletes the files numbered past the retention count, left by a larger former retention. */
    private void deleteBeyondRetention() throws IOException {
        int n = retention + 1;
        while (Files.deleteIfExists(rolled(n))) {
            n++;
        }
    }

    private static void moveIfExists(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        } catch (NoSuchFileException e) {
            // a gap in the numbering, after a retention change for example
        }
    }

    private static Object keyOf(Path path) throws IOException {
        return Files.readAttributes(path, BasicFileAttributes.class).fileKey();
    }

    /** The records of a chunk: each ends with a line feed. */
    private static long records(byte[] bytes, int offset, int length) {
        long count = 0;
        for (int i = offset; i < offset + length; i++) {
            if (bytes[i] == '\n') {
                count++;
            }
        }
        return count;
    }
}
