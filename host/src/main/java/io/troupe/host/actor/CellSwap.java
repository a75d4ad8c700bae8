package io.troupe.host.actor;

import static io.troupe.host.actor.ActorCell.DETACHED;
import static io.troupe.host.actor.ActorCell.RUNNING;
import static io.troupe.host.actor.ActorCell.STOPPING;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.Actor;
import io.troupe.api.ActorFactory;

/**
 * The hot-swap steps of one cell: {@link #detach} exports the instance's state and drops it,
 * {@link #prepare} creates an instance of the next revision and imports the state, then
 * {@link #commit} lets the cell process messages again or {@link #abort} drops the new instance so
 * that the cell waits for another revision. The exported state is held here until the commit.
 *
 * <p><b>Threading:</b> confined to the cell's turns, like the cell state it reads and writes through
 * the cell's package-private accessors.
 */
final class CellSwap {

    /** The cell's logger, so that log thresholds configured for cells keep applying. */
    private static final Logger LOG = LoggerFactory.getLogger(ActorCell.class);

    private final ActorCell cell;
    /** State exported by the previous revision's instance, kept until the swap commits. */
    private Object swapState;
    /** Whether a new revision's instance is prepared and waits for the commit. */
    private boolean prepared;

    CellSwap(ActorCell cell) {
        this.cell = cell;
    }

    void detach(SwapBarrier barrier) {
        try {
            int lifecycle = cell.lifecycle();
            if (lifecycle >= STOPPING || lifecycle == DETACHED) {
                return;
            }
            Object state = null;
            Actor old = cell.actor();
            if (old != null) {
                Thread thread = Thread.currentThread();
                ClassLoader previous = thread.getContextClassLoader();
                thread.setContextClassLoader(old.getClass().getClassLoader());
                try {
                    state = PortableState.require(old.exportState(cell), old.getClass().getClassLoader());
                } catch (Throwable t) {
                    LOG.error("Actor {}#{} could not export its state for the swap of {}; it continues without it",
                            cell.name(), cell.id(), cell.origin(), t);
                } finally {
                    thread.setContextClassLoader(previous);
                }
            }
            cell.actor(null);
            swapState = state;
            prepared = false;
            cell.lifecycle(DETACHED);
        } finally {
            barrier.arrive();
        }
    }

    void prepare(FactorySource next, SwapBarrier barrier) {
        if (cell.lifecycle() != DETACHED) {
            barrier.arrive();
            return;
        }
        cell.source(next);
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        try {
            ActorFactory factory = next.factory();
            thread.setContextClassLoader(factory.getClass().getClassLoader());
            Actor created = factory.create();
            if (created == null) {
                throw new IllegalStateException("factory " + next.origin() + " returned no actor");
            }
            cell.actor(created);
            created.preStart(cell);
            if (swapState != null) {
                created.importState(cell, swapState);
            }
            prepared = true;
            barrier.arrive();
        } catch (Throwable t) {
            cell.actor(null);
            prepared = false;
            barrier.fail(cell.name() + "#" + cell.id() + ": " + t);
            LOG.error("Actor {}#{} could not take over with {}", cell.name(), cell.id(), next.origin(), t);
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    void commit() {
        if (cell.lifecycle() == DETACHED && prepared) {
            prepared = false;
            swapState = null;
            cell.lifecycle(RUNNING);
        }
    }

    void abort() {
        if (cell.lifecycle() == DETACHED) {
            cell.actor(null);
            prepared = false;
        }
    }
}
