package io.troupe.host.actor;

import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import io.troupe.api.state.StateKey;
import io.troupe.api.state.StateStore;

/**
 * The writes of one durable actor's state to its {@link StateStore}, shared by the successive instances of
 * its cell (restarts, hot swaps): at most one write in flight, and the snapshots of the turns that run
 * meanwhile coalesced into one next write of the newest.
 *
 * <pre>
 *   submit(S1) ──► write S1 ─────────── done ──► write S3 (S2 never written) ── done ──► idle
 *   submit(S2) ──► queued: S2                         │
 *   submit(S3) ──► queued: S3 (replaces S2) ──────────┘   turns 2 and 3 learn the outcome of S3
 * </pre>
 *
 * Serialising the writes is what makes a refusal exact. Each turn's snapshot carries the changes of every
 * earlier turn; were they written side by side, a later snapshot could reach the disk after an earlier one
 * was refused, making durable a change whose client heard {@code state.unavailable}. Here, when a write of a
 * {@linkplain #submit strict} turn (mode every-turn) fails, the state is <i>tainted</i>: the queued snapshot
 * is dropped, its turns fail with the same cause, and so does every turn submitted later, until an instance
 * of the cell starts again from what the store holds ({@link #startedFrom} with {@code fromStore}). A turn
 * whose state is unchanged waits for the newest write in flight or queued (what it answered may depend on
 * it), or passes at once when there is none.
 *
 * <p>A failed write of a lenient turn (periodic and on-request modes, which hold no messages) taints
 * nothing: the actor goes on, and the next write carries its whole state again.
 *
 * <p><b>Threading:</b> {@link #submit} and {@link #startedFrom} on the cell's turns (worker threads); the
 * completions of the store's writes on whatever thread the store completes them, which may start the next
 * write. The fields are guarded by this object's monitor, held only to read and swap them: the store is
 * called and the turns' futures are completed outside it. Never used on a reactor thread.
 */
final class StateWrites {

    private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

    private final StateKey key;
    private final StateStore store;

    /** The newest snapshot read from the store, written, in flight or queued, and not seen failing; null after a failure. */
    private byte[] last;
    /** Completes when the write in flight is durable; null when none is. */
    private CompletableFuture<Void> inFlight;
    /** The snapshot that waits for the write in flight, and the future of the turns it covers; null when none. */
    private byte[] queued;
    private CompletableFuture<Void> queuedDone;
    private boolean queuedStrict;
    /** Why the state is tainted: a strict write failed and no instance has started from the store since. */
    private Throwable tainted;

    StateWrites(StateKey key, StateStore store) {
        this.key = key;
        this.store = store;
    }

    StateKey key() {
        return key;
    }

    StateStore store() {
        return store;
    }

    /** The newest snapshot handed to the store and not seen failing, which a restart goes on from; null: read the store. */
    synchronized byte[] last() {
        return last;
    }

    /** Whether a strict write failed and no instance has started from the store since. */
    synchronized boolean tainted() {
        return tainted != null;
    }

    /**
     * An instance starts from {@code snapshot}: read from the store ({@code fromStore}), which ends a taint,
     * or the newest snapshot of this object ({@link #last()}), which changes nothing.
     */
    synchronized void startedFrom(byte[] snapshot, boolean fromStore) {
        if (fromStore) {
            last = snapshot;
            tainted = null;
        }
    }

    /**
     * A turn's state: written when it differs from the newest snapshot (at once, or after the write in
     * flight, coalesced with the turns that come meanwhile).
     *
     * @param snapshot the state after the turn, encoded
     * @param strict   whether a failure taints the state (mode every-turn: the turns' messages are held)
     * @return completes once the state, and every earlier turn's, is durable; fails when it or an earlier
     *         turn's write failed (strict), or this write failed (lenient)
     */
    CompletableFuture<Void> submit(byte[] snapshot, boolean strict) {
        CompletableFuture<Void> started;
        synchronized (this) {
            if (tainted != null) {
                return CompletableFuture.failedFuture(tainted);
            }
            if (last != null && Arrays.equals(last, snapshot)) {
                return queuedDone != null ? queuedDone : inFlight != null ? inFlight : DONE;
            }
            last = snapshot;
            if (inFlight != null) {
                queued = snapshot;
                queuedStrict |= strict;
                if (queuedDone == null) {
                    queuedDone = new CompletableFuture<>();
                }
                return queuedDone;
            }
            started = new CompletableFuture<>();
            inFlight = started;
        }
        write(snapshot, strict, started);
        return started;
    }

    /** Hands {@code snapshot} to the store; its outcome completes {@code done} (outside the monitor). */
    private void write(byte[] snapshot, boolean strict, CompletableFuture<Void> done) {
        CompletionStage<Void> stage;
        try {
            stage = store.write(key, snapshot);
        } catch (RuntimeException e) {
            stage = CompletableFuture.failedFuture(e);
        }
        stage.whenComplete((ok, failure) -> written(snapshot, strict, done, failure));
    }

    /** The store's answer to the write in flight: the queued snapshot goes next, or the taint sets in. */
    private void written(byte[] snapshot, boolean strict, CompletableFuture<Void> done, Throwable failure) {
        byte[] next = null;
        boolean nextStrict = false;
        CompletableFuture<Void> nextDone = null;
        CompletableFuture<Void> dropped = null;
        synchronized (this) {
            if (failure != null && strict) {
                tainted = failure;
                last = null;
                dropped = queuedDone;
            } else {
                if (failure != null && last == snapshot) {
                    last = null; // the store does not have it: the next write writes the state whatever it is
                }
                next = queued;
                nextStrict = queuedStrict;
                nextDone = queuedDone;
            }
            queued = null;
            queuedDone = null;
            queuedStrict = false;
            inFlight = nextDone;
        }
        // the next write is on its way before anyone hears of this one: a turn submitted from a callback queues
        if (next != null) {
            write(next, nextStrict, nextDone);
        }
        if (failure == null) {
            done.complete(null);
        } else {
            done.completeExceptionally(failure);
        }
        if (dropped != null) {
            dropped.completeExceptionally(failure);
        }
    }
}
