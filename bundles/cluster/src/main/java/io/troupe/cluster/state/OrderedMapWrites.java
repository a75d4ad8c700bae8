package io.troupe.cluster.state;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

import com.hazelcast.map.IMap;

/**
 * The map writes of one key, one at a time and in the order they were asked for: a write asked for while
 * another of its key is in flight waits for it, and a newer one replaces a waiting one (its stage then
 * completes with the newer write, whose snapshot holds everything the older one had).
 *
 * <p>Why: two {@code setAsync} of one key in flight at once may land in either order. Hazelcast retries an
 * operation that meets its partition migrating (a node joins or leaves), and a retried older write can land
 * after a newer one, leaving the map with a state older than one whose reply has left. A durable actor
 * issues the write of each turn without waiting for the previous one, so its writes would race exactly when
 * its tenant moves.
 *
 * <p><b>Threading:</b> {@link #set} from any thread. Each key's queue changes inside
 * {@link ConcurrentHashMap#compute}; a write completes, and the next of its key is issued, on the thread
 * that completes the map's write (a Hazelcast response or partition thread).
 */
final class OrderedMapWrites {

    private final IMap<String, byte[]> map;
    /** The keys with a write in flight, and what waits behind it. */
    private final ConcurrentHashMap<String, Waiting> keys = new ConcurrentHashMap<>();

    /** What waits behind a key's write in flight: the newest value and every stage it completes. */
    private static final class Waiting {
        byte[] value;
        List<CompletableFuture<Void>> stages = new ArrayList<>(2);
    }

    /** One turn of {@link #set}'s decision. */
    private static final class Decision {
        boolean issueNow;
    }

    OrderedMapWrites(IMap<String, byte[]> map) {
        this.map = Objects.requireNonNull(map, "map");
    }

    /**
     * Sets {@code key} to {@code value} after the writes of the key asked for before.
     *
     * @return completes once the map has {@code value} or a newer value of the key; fails as the map's
     *         write of it failed
     */
    CompletionStage<Void> set(String key, byte[] value) {
        CompletableFuture<Void> stage = new CompletableFuture<>();
        Decision decision = new Decision();
        keys.compute(key, (ignored, waiting) -> {
            if (waiting == null) {
                decision.issueNow = true;
                return new Waiting(); // present: a write of the key is in flight; nothing waits yet
            }
            waiting.value = value;
            waiting.stages.add(stage);
            return waiting;
        });
        if (decision.issueNow) {
            issue(key, value, List.of(stage));
        }
        return stage;
    }

    /** Keys with a write in flight now (for tests and statistics). */
    int inFlight() {
        return keys.size();
    }

    private void issue(String key, byte[] value, List<CompletableFuture<Void>> stages) {
        CompletionStage<Void> written;
        try {
            written = map.setAsync(key, value);
        } catch (RuntimeException e) { // the member is shutting down, or refuses the call at once
            written = CompletableFuture.failedFuture(e);
        }
        // Runnable::run: on the completing thread (Hazelcast's plain whenComplete would start a thread per
        // callback on a two-core machine, see ReplicatedStateStore)
        written.whenCompleteAsync((ignored, failure) -> {
            for (CompletableFuture<Void> stage : stages) {
                if (failure == null) {
                    stage.complete(null);
                } else {
                    stage.completeExceptionally(failure);
                }
            }
            next(key);
        }, Runnable::run);
    }

    /** The write of {@code key} in flight ended: issues what waits behind it, or forgets the key. */
    private void next(String key) {
        Waiting[] taken = new Waiting[1];
        keys.compute(key, (ignored, waiting) -> {
            if (waiting == null || waiting.value == null) {
                return null; // nothing waits: the key has no write in flight any more
            }
            taken[0] = waiting;
            return new Waiting(); // the waiting write goes now, and is the one in flight
        });
        if (taken[0] != null) {
            issue(key, taken[0].value, taken[0].stages);
        }
    }
}
