package io.troupe.host.actor;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import io.troupe.api.state.StateKey;
import io.troupe.api.state.StateStore;
import io.troupe.api.state.StoreStats;
import io.troupe.api.state.StoredState;

/**
 * A {@link StateStore} whose writes become durable only when the test says so, for deterministic tests
 * of what a durable actor holds back until then. A write is visible to {@link #read} once completed.
 *
 * <p><b>Threading:</b> the test thread only (with the manual dispatcher, actors run there too).
 */
final class ControlledStore implements StateStore {

    /** One write not yet durable. */
    record Pending(StateKey key, byte[] snapshot, CompletableFuture<Void> done) {
    }

    final Map<StateKey, byte[]> durable = new HashMap<>();
    final List<Pending> pending = new ArrayList<>();
    int writes;
    /** How many of the next reads fail, as a store that is not open yet would. */
    int failingReads;

    @Override
    public CompletionStage<Void> write(StateKey key, byte[] snapshot) {
        writes++;
        Pending write = new Pending(key, snapshot.clone(), new CompletableFuture<>());
        pending.add(write);
        return write.done();
    }

    /** Makes the oldest pending write durable. */
    void completeNext() {
        Pending write = pending.remove(0);
        durable.put(write.key(), write.snapshot());
        write.done().complete(null);
    }

    /** Fails the oldest pending write, as a full disk would. */
    void failNext() {
        pending.remove(0).done().completeExceptionally(new IOException("disk full"));
    }

    void completeAll() {
        while (!pending.isEmpty()) {
            completeNext();
        }
    }

    @Override
    public Optional<byte[]> read(StateKey key) throws IOException {
        if (failingReads > 0) {
            failingReads--;
            throw new IOException("the store is not open yet");
        }
        return Optional.ofNullable(durable.get(key));
    }

    @Override
    public CompletionStage<Void> delete(StateKey key) {
        durable.remove(key);
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public List<StoredState> list(String tenant) {
        return durable.entrySet().stream().filter(entry -> entry.getKey().tenant().equals(tenant))
                .map(entry -> new StoredState(entry.getKey(), entry.getValue().length, Instant.EPOCH)).toList();
    }

    @Override
    public int purge(String tenant) {
        int before = durable.size();
        durable.keySet().removeIf(key -> key.tenant().equals(tenant));
        return before - durable.size();
    }

    @Override
    public StoreStats stats() {
        return new StoreStats(writes, 0, 0, 0, durable.size(), 0);
    }
}
