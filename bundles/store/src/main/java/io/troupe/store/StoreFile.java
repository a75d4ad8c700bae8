package io.troupe.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.h2.mvstore.Cursor;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.MVStoreException;
import org.h2.mvstore.type.ByteArrayDataType;
import org.h2.mvstore.type.StringDataType;
import org.h2.store.fs.FileUtils;

/**
 * One open MVStore file and its map of snapshots ({@value #MAP}: {@link StoreKeys} to {@link StoredValue}).
 *
 * <p>MVStore writes every commit as a new chunk, checksummed, and on open takes the newest chunk that is
 * complete: a crash at any moment (kill -9, power loss after a sync) leaves the state of the last commit
 * that reached the disk, never a torn one. Auto-commit is off: the store's writer thread alone commits, so
 * a commit it makes and then syncs holds everything it put; MVStore's background thread does not run.
 *
 * <p><b>Append only.</b> MVStore would write new chunks into the space of dead ones; the crash-point test
 * showed that after such reuse a kill -9 can make MVStore's recovery settle on an older chunk and lose
 * acknowledged commits (whole seconds of them). So space is never reused here: every chunk goes at the
 * end of the file, where recovery finds it. Dead chunks are reclaimed by {@link #replaceWithCopy}: once the file is
 * mostly dead space, the writer copies the live snapshots into a new MVStore file, syncs it, and renames it
 * over this one (atomically: a crash leaves one complete file or the other).
 *
 * <p>MVStore locks the file (a {@code FileChannel} lock) while open: a second process, or a second store
 * in this one, cannot open it.
 *
 * <p><b>Threading:</b> the map is read from any thread (MVStore maps are safe for concurrent readers and
 * one writer); {@link #commit}, {@link #sync}, {@link #replaceWithCopy} and the map's writes are the writer
 * thread's; {@link #close} is called by the writer thread too, or before it exists.
 */
final class StoreFile {

    static final String MAP = "troupe.state";
    /** A file at least this large ... */
    static final long REWRITE_MIN_BYTES = 16L << 20;
    /** ... whose blocks are in use at most this percentage is worth {@link #replaceWithCopy}. */
    static final int REWRITE_FILL_RATE = 25;
    /** Where {@link #replaceWithCopy} builds the new file, beside the store's. */
    static final String REWRITE_SUFFIX = ".rewrite";
    /**
     * How long a chunk that holds nothing live any more counts as in use (MVStore's retention time): here
     * only until its blocks count as free for {@link #worthRewriting}, since nothing is overwritten.
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
        try {
            FileUtils.delete(fileName + REWRITE_SUFFIX); // a rewrite a crash interrupted: the store file is whole
        } catch (RuntimeException e) {
            throw new IOException("cannot delete " + fileName + REWRITE_SUFFIX + ", left by an interrupted rewrite: "
                    + e.getMessage(), e);
        }
        MVStore store;
        try {
            store = new MVStore.Builder().fileName(fileName).autoCommitDisabled().open();
            store.setReuseSpace(false);
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

    /** Whether the file is large and mostly dead chunks, so that {@link #replaceWithCopy} would shrink it a lot. */
    boolean worthRewriting() {
        return store.getFileStore().size() >= REWRITE_MIN_BYTES && store.getFillRate() <= REWRITE_FILL_RATE;
    }

    /** The file's size in bytes. */
    long size() {
        return store.getFileStore().size();
    }

    /**
     * Copies every snapshot into a new file beside this one, syncs it and renames it over this file. This store
     * stays open on the old file (readers may still use it): the caller opens the new one, then closes this.
     * A crash before the rename leaves this file as it was (the copy is deleted at the next open), after it
     * the copy. Throws when the rename did not happen.
     */
    void replaceWithCopy() throws IOException {
        String target = fileName + REWRITE_SUFFIX;
        FileUtils.delete(target);
        MVStore copy = new MVStore.Builder().fileName(target).autoCommitDisabled().open();
        try {
            MVMap<String, byte[]> copied = copy.openMap(MAP, new MVMap.Builder<String, byte[]>()
                    .keyType(StringDataType.INSTANCE).valueType(ByteArrayDataType.INSTANCE));
            Cursor<String, byte[]> cursor = map.cursor(null);
            while (cursor.hasNext()) {
                String key = cursor.next();
                copied.put(key, cursor.getValue());
            }
            copy.commit();
            copy.sync();
            copy.close();
        } catch (RuntimeException e) {
            copy.closeImmediately();
            FileUtils.delete(target);
            throw new IOException("cannot rewrite the state store " + fileName + " into " + target + ": "
                    + e.getMessage(), e);
        }
        FileUtils.moveAtomicReplace(target, fileName);
        syncFolder();
    }

    /** Makes the rename durable: syncs the folder of a plain file (a file system prefix is left alone). */
    private void syncFolder() throws IOException {
        Path folder;
        try {
            folder = Path.of(fileName).toAbsolutePath().getParent();
        } catch (InvalidPathException e) {
            return;
        }
        if (folder == null || !Files.isDirectory(folder)) {
            return;
        }
        try (FileChannel channel = FileChannel.open(folder, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            // some systems cannot open a folder; the rename is then as durable as they make it
        }
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
