package io.troupe.store;

import java.io.IOException;

import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.MVStoreException;
import org.h2.mvstore.type.ByteArrayDataType;
import org.h2.mvstore.type.StringDataType;

/**
 * One open MVStore file and its map of snapshots ({@value #MAP}: {@link StoreKeys} to {@link StoredValue}).
 *
 * <p>MVStore writes every commit as a new chunk, checksummed, after the previous ones, and on open takes the
 * newest chunk that is complete: a crash at any moment (kill -9, power loss after a sync) leaves the state
 * of the last commit that reached the disk, never a torn one. Auto-commit is off: the store's writer
 * thread alone commits, so a commit it makes and then syncs holds everything it put. MVStore's own
 * background thread is therefore not running, and its housekeeping (rewriting chunks that hold little
 * live data) is done by {@link #compact}, which the writer calls when it is idle.
 *
 * <p>MVStore locks the file (a {@code FileChannel} lock) while open: a second process, or a second store
 * in this one, cannot open it.
 *
 * <p><b>Threading:</b> the map is read from any thread (MVStore maps are safe for concurrent readers and
 * one writer); {@link #commit}, {@link #sync}, {@link #compact} and the map's writes are the writer
 * thread's; {@link #close} is called by the writer thread too, or before it exists.
 */
final class StoreFile {

    static final String MAP = "troupe.state";
    /** Chunks with less live data than this percentage are rewritten by {@link #compact}. */
    static final int TARGET_FILL_RATE = 50;
    /** Bytes {@link #compact} rewrites at most per call, so that it delays the next batch little. */
    static final int COMPACT_WRITE_BYTES = 1 << 20;
    /**
     * How long the space of a chunk that holds nothing live any more is kept before MVStore may write over
     * it. MVStore's default, 45 s, guards against a disk that reorders unsynced writes; this store syncs
     * before it acknowledges (or, without syncWrites, promises only to survive the process, whose written
     * bytes the operating system keeps), so the time only has to cover a reader still walking an older
     * version of the map. Under a steady load the file holds about this long's worth of writes beyond the
     * live data: 5 s instead of 45 keeps it a ninth of the size.
     */
    static final int RETENTION_MILLIS = 5_000;

    private final String fileName;
    private final MVStore store;
    private final MVMap<String, byte[]> map;

    private StoreFile(String fileName, MVStore store, MVMap<String, byte[]> map) {
        this.fileName = fileName;
        this.store = store;
        this.map = map;
    }

    /**
     * Opens (or creates) the store in {@code fileName}, an H2 file name: a path, or a path behind one of
     * H2's file system prefixes.
     *
     * @throws IOException when the file cannot be opened: locked by another process, not an MVStore file,
     *                     corrupt beyond MVStore's recovery, or not readable
     */
    static StoreFile open(String fileName) throws IOException {
        MVStore store;
        try {
            store = new MVStore.Builder().fileName(fileName).autoCommitDisabled().open();
            store.setRetentionTime(RETENTION_MILLIS);
        } catch (MVStoreException | IllegalStateException e) {
            throw new IOException("cannot open the state store " + fileName + ": " + e.getMessage(), e);
        }
        try {
            MVMap<String, byte[]> map = store.openMap(MAP, new MVMap.Builder<String, byte[]>()
                    .keyType(StringDataType.INSTANCE).valueType(ByteArrayDataType.INSTANCE));
            return new StoreFile(fileName, store, map);
        } catch (RuntimeException e) {
            store.closeImmediately();
            throw new IOException("cannot open the map " + MAP + " of the state store " + fileName + ": "
                    + e.getMessage(), e);
        }
    }

    MVMap<String, byte[]> map() {
        return map;
    }

    String fileName() {
        return fileName;
    }

    /** Writes what the map changed as one new chunk; false when nothing changed. */
    boolean commit() {
        return store.commit() >= 0;
    }

    /** Forces the file to the disk ({@code FileChannel.force(true)}). */
    void sync() {
        store.sync();
    }

    /** Rewrites a little of the chunks that hold little live data; true when something needs a commit. */
    boolean compact() {
        return store.compact(TARGET_FILL_RATE, COMPACT_WRITE_BYTES);
    }

    boolean isClosed() {
        return store.isClosed();
    }

    /** Commits what is left and closes the file. */
    void close() {
        store.close();
    }

    /** Closes the file without writing anything (after a failure); never throws. */
    void closeImmediately() {
        store.closeImmediately();
    }

    @Override
    public String toString() {
        return fileName;
    }
}
