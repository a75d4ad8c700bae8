package io.troupe.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;

import org.h2.mvstore.Cursor;
import org.h2.mvstore.MVMap;

import io.troupe.api.state.StateKey;
import io.troupe.api.state.StateStore;
import io.troupe.api.state.StoreStats;
import io.troupe.api.state.StoredState;

/**
 * The embedded default {@link StateStore}: durable actors' snapshots in one H2 MVStore file, written with
 * group commit. The distribution opens {@code data/state.mv.db} and registers it as an OSGi service; an
 * embedded runtime or a test opens one itself:
 *
 * <pre>
 * try (MvStateStore store = MvStateStore.open(Path.of("data/state.mv.db"))) {
 *     Troupe troupe = Troupe.builder().stateStore(store).build();
 *     ...
 * }
 * </pre>
 *
 * <p><b>Durability.</b> {@link #write} queues the snapshot and returns at once; the writer thread
 * ({@code troupe-store-writer}, see {@link StoreWriter}) puts everything queued into the map, commits it as
 * one MVStore chunk and syncs the file once ({@code FileChannel.force}), then completes the stages of the
 * batch in the order they were queued. So a completed stage means the snapshot is on the disk, and a crash
 * of the process or of the machine at any moment leaves the file at its last synced commit, which MVStore
 * finds on the next open (every chunk is checksummed; a torn one is ignored). With
 * {@code syncWrites = false} a stage completes after the commit without the sync: the snapshot survives a
 * crash of the process (the operating system has the bytes) but not of the machine.
 *
 * <p><b>Layout.</b> One map, {@value StoreFile#MAP}: key {@code tenant \0 origin \0 path}
 * ({@link StoreKeys}), so that a tenant's snapshots are one contiguous range; value a 9-byte header (format,
 * written-at milliseconds) and the snapshot ({@link StoredValue}).
 *
 * <p><b>Failures.</b> A batch the disk refuses fails its stages with an {@link IOException} and the store
 * keeps serving: it opens the file again at its last durable commit for the next batch. After
 * {@link #close} every write and read is refused with an {@link IllegalStateException} naming the file.
 *
 * <p><b>Threading:</b> every method from any thread, concurrently. {@link #write}, {@link #delete} and
 * {@link #purgeAsync} never block; {@link #read}, {@link #list} and {@link #stats} read the map without
 * locks; {@link #purge} waits for its batch. The stages complete on the writer thread: their callbacks
 * should be short, or hand off to another thread, since the next batch waits for them. {@link #close}
 * must not be called from such a callback.
 */
public final class MvStateStore implements StateStore, AutoCloseable {

    private final String fileName;
    private final StoreWriter writer;

    private MvStateStore(String fileName, StoreWriter writer) {
        this.fileName = fileName;
        this.writer = writer;
    }

    /**
     * Opens the store in {@code file}, creating it (and its folder) when missing; every write is synced.
     *
     * @throws IOException when the file cannot be opened: another process has it open, it is not an MVStore
     *                     file, or the folder cannot be created
     */
    public static MvStateStore open(Path file) throws IOException {
        return open(file, true);
    }

    /**
     * Opens the store in {@code file}, creating it (and its folder) when missing.
     *
     * @param syncWrites whether a write is synced to the disk before its stage completes (see the class
     *                   comment); can be changed later with {@link #syncWrites(boolean)}
     */
    public static MvStateStore open(Path file, boolean syncWrites) throws IOException {
        Objects.requireNonNull(file, "file");
        Path absolute = file.toAbsolutePath();
        if (Files.isDirectory(absolute)) {
            throw new IOException("the state store file " + absolute + " is a directory");
        }
        Path folder = absolute.getParent();
        if (folder != null) {
            Files.createDirectories(folder);
        }
        return open(absolute.toString(), syncWrites);
    }

    /** Opens the store in {@code fileName}, an H2 file name (tests use H2's file system prefixes). */
    static MvStateStore open(String fileName, boolean syncWrites) throws IOException {
        StoreWriter writer = new StoreWriter(StoreFile.open(fileName), syncWrites);
        writer.start();
        return new MvStateStore(fileName, writer);
    }

    /** The file this store keeps its snapshots in. */
    public String fileName() {
        return fileName;
    }

    /** Whether writes are synced to the disk before their stages complete. */
    public boolean syncWrites() {
        return writer.syncWrites();
    }

    /** Syncs (true) or only commits (false) the batches written from now on. */
    public void syncWrites(boolean on) {
        writer.syncWrites(on);
    }

    /** Whether {@link #close} was called. */
    public boolean isClosed() {
        return writer.isClosing();
    }

    /**
     * Queues {@code snapshot} for {@code key}. The array is copied: the caller may reuse it.
     *
     * @return completes on the writer thread once the snapshot is durable; fails with an {@link IOException}
     *         when the disk refused its batch, with an {@link IllegalStateException} once the store is closed,
     *         and with an {@link IllegalArgumentException} for a key the store cannot keep (a tenant or origin
     *         holding U+0000)
     */
    @Override
    public CompletionStage<Void> write(StateKey key, byte[] snapshot) {
        Objects.requireNonNull(snapshot, "snapshot");
        StoreOp.Put put;
        try {
            put = new StoreOp.Put(StoreKeys.encode(key), StoredValue.encode(snapshot, System.currentTimeMillis()));
        } catch (IllegalArgumentException e) {
            return CompletableFuture.failedFuture(e);
        }
        if (!writer.submit(put)) {
            return CompletableFuture.failedFuture(closed("write of " + key));
        }
        return put.done;
    }

    @Override
    public CompletionStage<Void> delete(StateKey key) {
        StoreOp.Remove remove;
        try {
            remove = new StoreOp.Remove(StoreKeys.encode(key));
        } catch (IllegalArgumentException e) {
            return CompletableFuture.failedFuture(e);
        }
        if (!writer.submit(remove)) {
            return CompletableFuture.failedFuture(closed("delete of " + key));
        }
        return remove.done;
    }

    @Override
    public Optional<byte[]> read(StateKey key) throws IOException {
        String encoded;
        try {
            encoded = StoreKeys.encode(key);
        } catch (IllegalArgumentException e) {
            return Optional.empty(); // such a key can never have been written
        }
        byte[] value = onMap(map -> map.get(encoded), "read " + key);
        return value == null ? Optional.empty() : Optional.of(StoredValue.snapshot(value));
    }

    @Override
    public List<StoredState> list(String tenant) throws IOException {
        String prefix = StoreKeys.tenantPrefix(Objects.requireNonNull(tenant, "tenant"));
        return onMap(map -> {
            List<StoredState> states = new ArrayList<>();
            Cursor<String, byte[]> cursor = map.cursor(prefix);
            while (cursor.hasNext()) {
                String key = cursor.next();
                if (!key.startsWith(prefix)) {
                    break;
                }
                byte[] value = cursor.getValue();
                states.add(new StoredState(StoreKeys.decode(key), StoredValue.snapshotBytes(value),
                        StoredValue.writtenAt(value)));
            }
            return states;
        }, "list tenant '" + tenant + "'");
    }

    /**
     * Removes everything stored for {@code tenant} and waits until that is durable.
     *
     * @throws IOException when the disk refused the removal (nothing was removed then)
     */
    @Override
    public int purge(String tenant) throws IOException {
        try {
            return purgeAsync(tenant).toCompletableFuture().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while purging tenant '" + tenant + "' from " + fileName, e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IOException(e.getCause());
        }
    }

    /** {@link #purge} without waiting: completes with how many snapshots were removed, once durable. */
    public CompletionStage<Integer> purgeAsync(String tenant) {
        StoreOp.Purge purge;
        try {
            purge = new StoreOp.Purge(StoreKeys.tenantPrefix(Objects.requireNonNull(tenant, "tenant")));
        } catch (IllegalArgumentException e) {
            return CompletableFuture.failedFuture(e);
        }
        if (!writer.submit(purge)) {
            return CompletableFuture.failedFuture(closed("purge of tenant '" + tenant + "'"));
        }
        return purge.done;
    }

    @Override
    public StoreStats stats() {
        return new StoreStats(writer.writes(), writer.bytesWritten(), writer.syncs(), writer.writeNanosP99(),
                writer.storedStates(), writer.storedBytes());
    }

    /**
     * Writes everything queued, syncs, and closes the file; later calls are refused. Idempotent. An
     * interrupt ends the wait (the interrupt flag is set again), not the writer, which closes the file itself.
     *
     * @throws IllegalStateException when called from the writer thread (a stage's callback)
     */
    @Override
    public void close() {
        try {
            writer.close();
        } catch (InterruptedException e) {
            // the writer still finishes the queue and closes the file on its own
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "MvStateStore[" + fileName + "]";
    }

    /** What a map read returns. */
    @FunctionalInterface
    private interface MapRead<T> {
        T apply(MVMap<String, byte[]> map);
    }

    /**
     * Runs {@code read} on the open map; when the writer replaced the file meanwhile (after a failed write),
     * once more on the new one.
     */
    private <T> T onMap(MapRead<T> read, String what) throws IOException {
        if (writer.isClosing()) {
            throw closed(what);
        }
        StoreFile file = writer.file();
        try {
            return read.apply(file.map());
        } catch (RuntimeException e) {
            StoreFile now = writer.file();
            if (now != file) {
                return read.apply(now.map());
            }
            if (writer.isClosing()) {
                throw closed(what);
            }
            throw new IOException("the state store " + fileName + " could not " + what + ": " + e.getMessage(), e);
        }
    }

    private IllegalStateException closed(String what) {
        return new IllegalStateException("the state store " + fileName + " is closed: " + what + " refused");
    }
}
