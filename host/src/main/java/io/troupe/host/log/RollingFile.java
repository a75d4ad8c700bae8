package io.troupe.host.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * {@code troupe.log} and its rolled predecessors {@code troupe.log.1} (newest) to
 * {@code troupe.log.<retention>} (oldest), written through a {@link FileChannel} in append mode.
 *
 * <p>Rolling: before a chunk that would take the file past {@code rollSizeBytes}, the file is closed
 * and renamed to {@code .1} (the others move up one, the one past the retention count is deleted),
 * and a new empty file is opened. Chunks hold whole records, so no record is split across files; a
 * file exceeds the limit only when a single chunk does, which with the default 50 MiB limit and a
 * cap of at most a few MiB per segment does not happen. A retention of 0 keeps no rolled file.
 *
 * <p>Threading: one thread at a time, the holder of the logging I/O lock. Failures are reported once
 * on stderr and never thrown; a write that fails loses its chunk, later chunks are still tried.
 */
final class RollingFile implements LogOutput {

    private final Path file;
    private final SinkFailureReport failures;
    private FileChannel channel;
    private long size;
    private long rollSizeBytes;
    private int retention;

    private RollingFile(Path file, FileChannel channel, long rollSizeBytes, int retention,
            SinkFailureReport failures) throws IOException {
        this.file = file;
        this.channel = channel;
        this.size = channel.size();
        this.rollSizeBytes = rollSizeBytes;
        this.retention = retention;
        this.failures = failures;
    }

    /**
     * Opens {@code file} for appending, creating it and its parent directories if needed.
     *
     * @throws IOException if the directories or the file cannot be created or opened
     */
    static RollingFile open(Path file, long rollSizeBytes, int retention, SinkFailureReport failures)
            throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        return new RollingFile(file, openChannel(file), rollSizeBytes, retention, failures);
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
        if (channel == null) {
            return;
        }
        try {
            if (size > 0 && size + length > rollSizeBytes) {
                roll();
            }
            ByteBuffer chunk = ByteBuffer.wrap(bytes, offset, length);
            while (chunk.hasRemaining()) {
                size += channel.write(chunk);
            }
        } catch (IOException | RuntimeException e) {
            failures.report("cannot write log file " + file, e);
        }
    }

    @Override
    public void flush(boolean force) {
        if (channel == null || !force) {
            return; // FileChannel keeps no buffer of its own: written means handed to the OS
        }
        try {
            channel.force(false);
        } catch (IOException | RuntimeException e) {
            failures.report("cannot force log file " + file + " to disk", e);
        }
    }

    @Override
    public void close() {
        if (channel == null) {
            return;
        }
        try {
            channel.close();
        } catch (IOException e) {
            failures.report("cannot close log file " + file, e);
        }
        channel = null;
    }

    /** The path of rolled file number {@code n}, {@code troupe.log.n}. */
    Path rolled(int n) {
        return file.resolveSibling(file.getFileName() + "." + n);
    }

    private void roll() throws IOException {
        channel.close();
        channel = null;
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
        } finally {
            // Even when renaming failed, go on writing: into the same file, which then grows.
            channel = openChannel(file);
            size = channel.size();
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

    private static FileChannel openChannel(Path file) throws IOException {
        return FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND);
    }
}
