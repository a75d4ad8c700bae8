package io.troupe.store;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;

import org.h2.mvstore.Cursor;
import org.h2.mvstore.MVMap;

/**
 * The store's one writer thread, {@value #THREAD_NAME}, and its queue: group commit.
 *
 * <pre>
 *  write / delete / purge (any thread)          troupe-store-writer
 *  ─────────────────────────────────            ─────────────────────────────────────────────────
 *  queue.add(op)  ──► [op op op op ...] ──►     take one, drain the rest (at most MAX_BATCH)
 *  (never blocks)                               put / remove each into the map, in queue order
 *                                               commit: one MVStore chunk for the whole batch
 *                                               sync: FileChannel.force, once (if syncWrites)
 *                                               complete the batch's stages, in queue order
 * </pre>
 *
 * While one batch is being synced the next one queues up, so the more writers wait, the more each sync
 * carries. Writes to one key complete in the order they were queued, since the queue is FIFO and one
 * thread applies it. A batch that fails (the disk refuses a write or the sync) fails the stages of that
 * batch, in order, with an {@link IOException}; the writer closes the file and opens it again (MVStore
 * recovers the last commit that reached the disk) and serves later batches; while the file cannot be
 * opened again, each later batch tries once more and fails the same way. Such an episode is logged once
 * when it starts and once when a batch is written again ({@link FailingWrites}).
 *
 * <p>Every {@value #HOUSEKEEPING_MILLIS} ms, after a batch or when idle, the writer looks whether the file
 * (append-only, see {@link StoreFile}) is mostly dead chunks, and if so replaces it with a copy of its live
 * snapshots ({@link StoreFile#replaceWithCopy}); the next batch waits for that copy.
 *
 * <p><b>Threading:</b> {@link #submit} from any thread (a read lock, so submitters do not exclude each
 * other; {@link #close} takes the write lock once to queue the last op). Everything else runs on the writer
 * thread. {@link #file()}, {@link #syncWrites} and the counters are volatile, written by the writer thread
 * (or by the thread that sets {@code syncWrites}) and read by any.
 */
final class StoreWriter implements Runnable {

    static final String THREAD_NAME = "troupe-store-writer";
    /** The most ops one commit carries, so that one batch's latency stays bounded under a flood. */
    static final int MAX_BATCH = 8192;
    static final long HOUSEKEEPING_MILLIS = 1_000;

    private final String fileName;
    private final LinkedBlockingQueue<StoreOp> queue = new LinkedBlockingQueue<>();
    private final ReentrantReadWriteLock gate = new ReentrantReadWriteLock();
    private final LatencyWindow latencies = new LatencyWindow();
    private final FailingWrites failingWrites;
    private final Thread thread;
    /** Guarded by the gate's write lock (read under its read lock). */
    private boolean closing;

    /** The open file, or null while a failed one could not be opened again. */
    private volatile StoreFile file;
    /** Why the file is not open, while {@link #file} is null. */
    private volatile IOException unavailable;
    private volatile boolean syncWrites;

    private volatile long writes;
    private volatile long bytesWritten;
    private volatile long syncs;
    private volatile long storedStates;
    private volatile long storedBytes;
    private volatile long rewrites;

    private long lastHousekeeping = System.nanoTime();

    StoreWriter(StoreFile file, boolean syncWrites) {
        this.fileName = file.fileName();
        this.failingWrites = new FailingWrites(fileName);
        this.file = file;
        this.syncWrites = syncWrites;
        count(file);
        thread = new Thread(this, THREAD_NAME);
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /**
     * Queues {@code op}; false once the store is closing (the op is not queued).
     */
    boolean submit(StoreOp op) {
        gate.readLock().lock();
        try {
            if (closing) {
                return false;
            }
            queue.add(op);
            return true;
        } finally {
            gate.readLock().unlock();
        }
    }

    /**
     * Lets the writer finish every op queued so far, then closes the file and waits for the thread to end.
     * Idempotent.
     *
     * @throws IllegalStateException when called on the writer thread (from a stage's callback), which
     *                               would wait for itself
     */
    void close() throws InterruptedException {
        if (Thread.currentThread() == thread) {
            throw new IllegalStateException("the state store " + fileName + " cannot be closed from its own writer "
                    + "thread (a write's callback): close it from another thread");
        }
        gate.writeLock().lock();
        try {
            if (!closing) {
                closing = true;
                queue.add(new StoreOp.Close());
            }
        } finally {
            gate.writeLock().unlock();
        }
        thread.join();
    }

    boolean isClosing() {
        gate.readLock().lock();
        try {
            return closing;
        } finally {
            gate.readLock().unlock();
        }
    }

    /** The open file; throws the reason when it could not be opened again after a failure. */
    StoreFile file() throws IOException {
        StoreFile current = file;
        if (current == null) {
            throw new IOException(unavailable.getMessage(), unavailable);
        }
        return current;
    }

    void syncWrites(boolean on) {
        syncWrites = on;
    }

    boolean syncWrites() {
        return syncWrites;
    }

    long writes() {
        return writes;
    }

    long bytesWritten() {
        return bytesWritten;
    }

    long syncs() {
        return syncs;
    }

    long storedStates() {
        return storedStates;
    }

    long storedBytes() {
        return storedBytes;
    }

    long writeNanosP99() {
        return latencies.p99();
    }

    @Override
    public void run() {
        List<StoreOp> batch = new ArrayList<>();
        boolean closed = false;
        while (!closed) {
            StoreOp first;
            try {
                first = queue.poll(HOUSEKEEPING_MILLIS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                // nobody but close() ends this thread; keep serving the queue
                continue;
            }
            if (first == null) {
                housekeeping();
                continue;
            }
            batch.add(first);
            queue.drainTo(batch, MAX_BATCH - 1);
            if (batch.get(batch.size() - 1) instanceof StoreOp.Close) {
                batch.remove(batch.size() - 1);
                closed = true;
            }
            if (!batch.isEmpty()) {
                try {
                    apply(batch);
                } catch (Error e) {
                    // out of memory, say: fail what waits on this batch rather than leave it waiting for ever;
                    // a fatal error goes on up to the process's handler, which stops the process (issue 19)
                    IOException failure = new IOException("the state store " + fileName + " failed a batch: " + e, e);
                    failAll(batch, failure);
                    if (e instanceof VirtualMachineError) {
                        throw e;
                    }
                    failingWrites.failed(batch.size(), failure);
                }
            }
            batch.clear();
            if (!closed) {
                housekeeping();
            }
        }
        StoreFile last = file;
        if (last != null) {
            try {
                last.close();
            } catch (RuntimeException e) {
                last.closeImmediately();
            }
        }
    }

    /** Applies {@code batch} to the map, commits and syncs once, then completes its stages in order. */
    private void apply(List<StoreOp> batch) {
        StoreFile current = file != null ? file : reopen();
        if (current == null) {
            IOException failure = new IOException(unavailable.getMessage(), unavailable);
            failAll(batch, failure);
            failingWrites.failed(batch.size(), failure);
            return;
        }
        long bytesDelta = 0;
        long putBytes = 0;
        int puts = 0;
        try {
            MVMap<String, byte[]> map = current.map();
            for (StoreOp op : batch) {
                if (op instanceof StoreOp.Put put) {
                    byte[] old = map.put(put.key, put.value);
                    bytesDelta += StoredValue.snapshotBytes(put.value)
                            - (old == null ? 0 : StoredValue.snapshotBytes(old));
                    putBytes += StoredValue.snapshotBytes(put.value);
                    puts++;
                } else if (op instanceof StoreOp.Remove remove) {
                    byte[] old = map.remove(remove.key);
                    bytesDelta -= old == null ? 0 : StoredValue.snapshotBytes(old);
                } else if (op instanceof StoreOp.Purge purge) {
                    bytesDelta -= purge(map, purge);
                }
            }
            if (current.commit() && syncWrites) {
                current.sync();
                syncs = syncs + 1;
            }
            storedStates = map.sizeAsLong();
        } catch (RuntimeException e) {
            IOException failure = failure(current, batch.size(), e);
            // MVStore's map still holds the batch's puts, which the file does not: the map is dropped and the file
            // opened again (its last commit) before anyone hears of the failure, since an actor told of it restarts
            // at once and reads its state, which must not be the refused one
            unavailable = new IOException("the state store " + fileName + " is closed after a failed write ("
                    + e.getMessage() + ") and could not be opened again");
            file = null;
            current.closeImmediately();
            reopen();
            failAll(batch, failure);
            failingWrites.failed(batch.size(), failure);
            return;
        }
        failingWrites.succeeded();
        storedBytes = storedBytes + bytesDelta;
        writes = writes + puts;
        bytesWritten = bytesWritten + putBytes;
        long now = System.nanoTime();
        long[] nanos = new long[puts];
        int n = 0;
        for (StoreOp op : batch) {
            if (op instanceof StoreOp.Put put) {
                nanos[n++] = now - put.queuedNanos;
            }
        }
        latencies.record(nanos, n);
        for (StoreOp op : batch) {
            if (op instanceof StoreOp.Put put) {
                put.done.complete(null);
            } else if (op instanceof StoreOp.Remove remove) {
                remove.done.complete(null);
            } else if (op instanceof StoreOp.Purge purge) {
                purge.done.complete(purge.removed);
            }
        }
    }

    /** Removes the keys of {@code purge}'s range; returns the snapshot bytes removed. */
    private static long purge(MVMap<String, byte[]> map, StoreOp.Purge purge) {
        List<String> keys = new ArrayList<>();
        Cursor<String, byte[]> cursor = map.cursor(purge.prefix);
        while (cursor.hasNext()) {
            String key = cursor.next();
            if (!key.startsWith(purge.prefix)) {
                break;
            }
            keys.add(key);
        }
        long bytes = 0;
        for (String key : keys) {
            byte[] old = map.remove(key);
            if (old != null) {
                bytes += StoredValue.snapshotBytes(old);
                purge.removed++;
            }
        }
        return bytes;
    }

    /** The IOException that fails a batch: the disk's own, when MVStore's failure carries one. */
    private static IOException failure(StoreFile file, int ops, RuntimeException e) {
        Throwable cause = e;
        while (cause != null && !(cause instanceof IOException)) {
            cause = cause.getCause();
        }
        String reason = cause != null ? cause.toString() : e.getMessage();
        return new IOException("the state store " + file + " could not write a batch of " + ops + " changes: "
                + reason, e);
    }

    private static void failAll(List<StoreOp> batch, IOException failure) {
        for (StoreOp op : batch) {
            op.fail(failure);
        }
    }

    /** Opens the file again after a failure; null (and {@link #unavailable} says why) when it cannot. */
    private StoreFile reopen() {
        try {
            StoreFile reopened = StoreFile.open(fileName);
            count(reopened);
            file = reopened;
            return reopened;
        } catch (IOException | RuntimeException e) {
            unavailable = new IOException("the state store " + fileName + " cannot be opened again after a failed "
                    + "write: " + e.getMessage(), e);
            return null;
        }
    }

    /** Counts what {@code opened} holds (at open, and after opening it again). */
    private void count(StoreFile opened) {
        MVMap<String, byte[]> map = opened.map();
        long bytes = 0;
        Iterator<String> keys = map.keyIterator(null);
        while (keys.hasNext()) {
            byte[] value = map.get(keys.next());
            if (value != null) {
                bytes += StoredValue.snapshotBytes(value);
            }
        }
        storedBytes = bytes;
        storedStates = map.sizeAsLong();
    }

    /**
     * Every {@value #HOUSEKEEPING_MILLIS} ms: when the file is mostly dead chunks, replaces it with a copy of
     * its live snapshots ({@link StoreFile#replaceWithCopy}). A rewrite that fails before its rename leaves the
     * file in use; one whose new file cannot be opened leaves the store to open it at the next batch.
     */
    private void housekeeping() {
        long now = System.nanoTime();
        StoreFile current = file;
        if (current == null || now - lastHousekeeping < TimeUnit.MILLISECONDS.toNanos(HOUSEKEEPING_MILLIS)) {
            return;
        }
        lastHousekeeping = now;
        try {
            if (!current.worthRewriting()) {
                return;
            }
        } catch (RuntimeException e) {
            return; // asked again at the next interval; a broken file shows at the next write
        }
        try {
            current.replaceWithCopy();
        } catch (IOException | RuntimeException e) {
            return; // the rename did not happen: the file in use is whole; tried again at the next interval
        }
        StoreFile rewritten;
        try {
            rewritten = StoreFile.open(fileName);
        } catch (IOException e) {
            rewritten = null;
            unavailable = new IOException("the state store " + fileName + " was rewritten but cannot be opened: "
                    + e.getMessage(), e);
        }
        file = rewritten;
        rewrites = rewrites + 1;
        current.closeImmediately();
    }

    long rewrites() {
        return rewrites;
    }
}
