package io.troupe.host.actor;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.ActorRef;
import io.troupe.api.DeadLetter;
import io.troupe.api.ErrorCode;
import io.troupe.api.Failure;
import io.troupe.api.state.Durability;
import io.troupe.api.state.StateKey;
import io.troupe.api.state.StateStore;
import io.troupe.host.state.StateCodec;

/**
 * One durable actor's bond with the {@link StateStore}: its key, its mode, its writes (shared with the
 * cell's earlier and later instances, one in flight at a time: {@link StateWrites}; a turn that leaves the
 * state as it was writes nothing), the outbox of its turns in mode {@link Durability#everyTurn()} and the
 * chain that releases each turn's messages only once its snapshot, and every earlier one, is durable, in
 * turn order.
 *
 * <p>Only the state of an instance that read the store (or took over the state of one that had) is
 * written: an instance whose start failed before it read the store, or that a hot swap created for an
 * actor that never started, must not replace the stored state with its own initial one.
 *
 * <p>A failed write (or a state that cannot be encoded) refuses the turn's held messages (asks fail with
 * {@code state.unavailable}, other messages become dead letters) and fails the actor, whose restart
 * reads the last durable snapshot: the actor never goes on from a state the store does not have. The
 * turns that ran on the refused state meanwhile are refused too, and none of their snapshots is written
 * after the refusal: a client told {@code state.unavailable} finds its change in no durable state.
 *
 * <p><b>Threading:</b> created and used on the cell's turns; the release chain's callbacks run on the
 * store's completion thread (or the turn's, when nothing needed writing) and only tell references, queue
 * work on the cell's turn, or refuse messages. {@link StateWrites} is thread-safe.
 */
final class CellDurability {

    private static final Logger LOG = LoggerFactory.getLogger(CellDurability.class);
    private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);
    /** The one encoding of actor state; stateless. */
    static final StateCodec CODEC = new StateCodec();

    private final ActorCell cell;
    private final Durability durability;
    /**
     * The writes of the cell's state, one for its successive bonds (restart, hot swap): a write that fails
     * after a restart took its snapshot as the state to go on from taints the state for them all.
     */
    private final StateWrites writes;
    /**
     * Whether the instance's state derives from the store: it read it ({@link #restored}) or imported the
     * state of an instance that had ({@link #carriesRestoredState}). Until then nothing is written: a state
     * the store never saw would overwrite the one it holds.
     */
    private boolean restored;
    /** Completes once every earlier turn's messages were released (or refused); never fails. */
    private CompletableFuture<Void> released = DONE;
    private final Outbox outbox;
    /** Mode PERIODIC: a flush is scheduled and has not run yet. */
    private boolean flushScheduled;

    /** Mode PERIODIC: a message other than the flush itself was handled since the last flush was scheduled. */
    private boolean touched;
    /** The flush, as a task on the actor's turn: recognised so that it does not count as a change. */
    private final Runnable flushTask = this::flush;


    /**
     * @param previous the bond of the instance this one replaces in the same cell (a restart, a hot swap),
     *                 or null: the new one goes on from its last snapshot and its release chain, so that
     *                 a restart starts from the newest state handed to the store (not from an older one a
     *                 pending write is about to replace), and no turn's messages overtake an earlier one's
     */
    CellDurability(ActorCell cell, StateKey key, Durability durability, StateStore store, CellDurability previous) {
        this.cell = cell;
        this.durability = durability;
        this.outbox = durability.mode() == Durability.Mode.EVERY_TURN ? new Outbox(cell) : null;
        if (previous != null && previous.writes.key().equals(key) && previous.writes.store() == store) {
            this.writes = previous.writes;
            this.released = previous.released;
        } else {
            this.writes = new StateWrites(key, store);
        }
    }

    /**
     * The newest snapshot this cell handed to the store (and has not seen fail), which a restarted or
     * swapped instance of the same cell starts from; null when the store's copy is the one to read.
     */
    byte[] lastSnapshot() {
        return writes.last();
    }

    /** Counts a message of the turn as a possible change of state, except the periodic flush itself. */
    void touched(Object message) {
        if (!(message instanceof TurnTask task && task.work() == flushTask)) {
            touched = true;
        }
    }

    StateKey key() {
        return writes.key();
    }

    Durability durability() {
        return durability;
    }

    /**
     * The snapshot the instance just started from: read from the store ({@code fromStore}; null when it
     * holds nothing for the key), or the cell's newest ({@link #lastSnapshot()}). It is the state the actor
     * now has, so an unchanged turn writes nothing; from now on its turns may write.
     */
    void restored(byte[] snapshot, boolean fromStore) {
        writes.startedFrom(snapshot, fromStore);
        restored = true;
    }

    /** The instance imported the state of one that had read the store (a hot swap): its turns may write. */
    void carriesRestoredState() {
        restored = true;
    }

    /** Whether the instance's state derives from the store, so that writing it loses nothing. */
    boolean isRestored() {
        return restored;
    }

    /** Before a batch of messages: in mode every-turn, what the turn sends is held from now on. */
    void beginBatch() {
        if (outbox != null) {
            outbox.open();
        }
    }

    /**
     * After a batch of {@code processed} messages. Every-turn: snapshots the state and releases the held
     * messages once it is durable, or refuses them when {@code failed} (the batch ended in a failure: the
     * state may be half-changed; the restart reads the last durable one). Periodic: schedules a flush.
     */
    void endBatch(int processed, boolean failed) {
        if (outbox == null) {
            if (touched && durability.mode() == Durability.Mode.PERIODIC && !failed) {
                scheduleFlush();
            }
            touched = false;
            return;
        }
        Outbox.close();
        List<Outbox.Held> held = outbox.drain();
        if (failed) {
            if (!held.isEmpty() && !cell.system().storeTrouble().ongoing()) { // else the episode's count says it
                LOG.warn("Actor {}: its turn failed, {} message(s) of it withdrawn", describe(), held.size());
            }
            refuse(held, new IllegalStateException(cell.name() + " failed: its turn's messages are withdrawn"));
            return;
        }
        if (processed == 0 && held.isEmpty()) {
            return;
        }
        CompletableFuture<Void> written;
        try {
            written = writeIfChanged();
        } catch (Throwable cause) {
            notDurable(held.size(), cause);
            refuse(held, cause);
            cell.failOnTurn(cause);
            return;
        }
        release(held, written);
    }

    /** Mode periodic: one flush per interval at most. */
    private void scheduleFlush() {
        if (flushScheduled) {
            return;
        }
        flushScheduled = true;
        int incarnation = cell.incarnation();
        cell.system().scheduler().schedule(() -> cell.runOnTurn(flushTask, incarnation, null),
                durability.interval().toNanos());
    }

    private void flush() {
        flushScheduled = false;
        save().whenComplete((done, failure) -> {
            if (failure != null) {
                LOG.error("Actor {}: its state could not be written to the store", describe(), failure);
            }
        });
    }

    /**
     * Writes the state now, if it changed ({@code saveState}, a periodic flush, a stop).
     *
     * @return completes once durable; fails with the encoding's or the store's error
     */
    CompletableFuture<Void> save() {
        try {
            return writeIfChanged();
        } catch (Throwable cause) {
            return CompletableFuture.failedFuture(cause);
        }
    }

    /**
     * Exports and encodes the state on this turn and writes it when it differs from the newest snapshot
     * (strictly in mode every-turn: see {@link StateWrites}).
     */
    private CompletableFuture<Void> writeIfChanged() throws Exception {
        if (!restored) {
            throw new IllegalStateException(describe() + ": its instance never read its state from the store;"
                    + " writing its state would overwrite the stored one");
        }
        Object state = cell.exportForStore();
        byte[] snapshot = CODEC.encode(state, describe());
        return writes.submit(snapshot, outbox != null);
    }

    /** Delivers {@code held} once {@code written} and every earlier release are done, in that order. */
    private void release(List<Outbox.Held> held, CompletableFuture<Void> written) {
        if (held.isEmpty() && written.isDone() && !written.isCompletedExceptionally()) {
            return;
        }
        released = released.thenCompose(earlier -> written).handle((ok, failure) -> {
            if (failure == null) {
                durableAgain();
                for (Outbox.Held message : held) {
                    message.target().tell(message.message(), message.sender());
                }
            } else {
                // first the restart, then the refusals: a client told of the refusal may send its next request at
                // once, and the restarted instance (reading the last durable state) must be the one to take it.
                // Whichever instance of this bond's lineage runs by then restarts: one that a restart started from
                // this turn's snapshot, before the store refused it, goes on from a state the store does not have.
                // Once one instance started again from the store, the state is clean: the turns refused with this
                // one restart nothing more.
                cell.runOnTurn(() -> {
                    CellDurability current = cell.durable();
                    if (current != null && current.writes == writes && writes.tainted()) {
                        cell.failOnTurn(failure);
                    }
                }, TurnTask.ANY_INCARNATION, null);
                notDurable(held.size(), failure);
                refuse(held, failure);
            }
            return null;
        });
    }

    /** A turn whose state could not be made durable: told once per episode of the system's store. */
    private void notDurable(int withdrawn, Throwable cause) {
        cell.system().storeTrouble().refused(describe(), withdrawn, cause);
    }

    /** A turn's state is durable: ends an episode of the system's store failing, if one was going on. */
    private void durableAgain() {
        cell.system().storeTrouble().durable();
    }

    private void refuse(List<Outbox.Held> held, Throwable cause) {
        for (Outbox.Held message : held) {
            if (message.target() instanceof AskRef ask) {
                ask.fail(new Failure(ErrorCode.STATE_UNAVAILABLE, cell.name() + ": its state could not be made"
                        + " durable (" + cause.getMessage() + ")"));
            } else {
                cell.system().deadLetters().publish(new DeadLetter(message.target(), message.message(),
                        message.sender(), "state not durable", cause));
            }
        }
    }

    /** Stops holding for good: the actor stopped; what was held is released or refused as decided. */
    CompletionStage<Void> whenReleased() {
        return released;
    }

    private String describe() {
        return cell.name() + "#" + cell.id() + " (" + writes.key() + ")";
    }

    /** For logs: the key and mode. */
    @Override
    public String toString() {
        return writes.key() + " " + durability;
    }
}
