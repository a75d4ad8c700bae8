package io.troupe.host.log;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Appends records to a file in UTF-8 and flushes after each one, so a record is in the file (in the
 * OS page cache, not forced to disk) by the time the log call returns.
 *
 * <p>Threading: any thread. Each {@link #append} takes a lock, writes and flushes on the calling
 * thread, so concurrent callers wait for one another. That is acceptable only while logging is
 * synchronous: the asynchronous logger will make a single consumer thread the only writer and
 * remove the lock. A {@link ReentrantLock} rather than {@code synchronized} so that virtual threads
 * do not pin their carrier while they wait on the disk.
 *
 * <p>Failures never reach the caller: the first one is reported on stderr, later records are still
 * attempted (the disk may get space back) but failures are not reported again. After
 * {@link #close} records are dropped.
 */
public final class FileSink implements LogSink {

    private final Path file;
    private final SinkFailureReport failures;
    private final ReentrantLock lock = new ReentrantLock();
    /** Guarded by {@link #lock}. */
    private final Writer out;
    /** Guarded by {@link #lock}. */
    private boolean closed;

    FileSink(Path file, Writer out, SinkFailureReport failures) {
        this.file = file;
        this.out = out;
        this.failures = failures;
    }

    /**
     * Opens {@code file} for appending, creating it and its parent directories if needed.
     *
     * @throws IOException if the directories or the file cannot be created or opened
     */
    public static FileSink open(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        // OutputStreamWriter replaces unmappable characters (a lone surrogate in a message) instead
        // of failing the whole record as Files.newBufferedWriter would.
        Writer writer = new BufferedWriter(new OutputStreamWriter(
                Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                        StandardOpenOption.APPEND),
                StandardCharsets.UTF_8));
        return new FileSink(file, writer, new SinkFailureReport());
    }

    /** The file this sink appends to. */
    public Path file() {
        return file;
    }

    @Override
    public void append(String record) {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            out.write(record);
            out.flush();
        } catch (IOException | RuntimeException e) {
            failures.report("cannot write log file " + file, e);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void flush() {
        lock.lock();
        try {
            if (!closed) {
                out.flush();
            }
        } catch (IOException | RuntimeException e) {
            failures.report("cannot flush log file " + file, e);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            out.close();
        } catch (IOException | RuntimeException e) {
            failures.report("cannot close log file " + file, e);
        } finally {
            lock.unlock();
        }
    }
}
