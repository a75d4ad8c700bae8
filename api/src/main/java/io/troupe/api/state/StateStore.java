package io.troupe.api.state;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * Where durable actors' snapshots live. The distribution registers one (an embedded database under
 * {@code data/}) as an OSGi service, and the runtime uses the first it finds; an embedded runtime is
 * given one by its builder. Snapshots are opaque bytes to the store: the runtime encodes and decodes
 * them.
 *
 * <pre>
 * store.write(key, snapshot).thenRun(() -&gt; releaseReplies());    // durable once the stage completes
 * Optional&lt;byte[]&gt; last = store.read(key);
 * </pre>
 *
 * <p><b>Durability:</b> when the stage of {@link #write} completes normally, the snapshot survives a
 * crash of the process and of the machine (the store has synced it to disk). Writes to one key
 * complete in the order they were made, and a later write replaces an earlier one. A store should
 * batch concurrent writes into one sync (group commit).
 *
 * <p><b>Threading:</b> every method from any thread, concurrently. {@link #write} and {@link #delete}
 * never block; the others may block on the disk, and the runtime calls them off its event loops.
 */
@ConsumerType
public interface StateStore {

    /**
     * Stores {@code snapshot} under {@code key}, replacing what was there.
     *
     * @return completes once the snapshot is durable; fails with an {@link IOException} when it cannot be
     *         written (the store then keeps the previous snapshot)
     */
    CompletionStage<Void> write(StateKey key, byte[] snapshot);

    /** The last snapshot stored under {@code key}, if any. */
    Optional<byte[]> read(StateKey key) throws IOException;

    /** Removes the snapshot under {@code key}, if any; completes once that is durable. */
    CompletionStage<Void> delete(StateKey key);

    /** What is stored for {@code tenant} (empty for actors of no tenant), ordered by key. */
    List<StoredState> list(String tenant) throws IOException;

    /**
     * Removes everything stored for {@code tenant}; only on an operator's explicit request.
     *
     * @return how many snapshots were removed
     */
    int purge(String tenant) throws IOException;

    /** The store's counters. */
    StoreStats stats();
}
