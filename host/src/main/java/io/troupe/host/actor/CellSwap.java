package io.troupe.host.actor;

import static io.troupe.host.actor.ActorCell.DETACHED;
import static io.troupe.host.actor.ActorCell.NEW;
import static io.troupe.host.actor.ActorCell.RUNNING;
import static io.troupe.host.actor.ActorCell.STOPPING;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.Actor;
import io.troupe.api.ActorFactory;

/**
 * The hot-swap steps of one cell.
 *
 * <pre>
 *  RUNNING --detach--&gt; DETACHED --prepare--&gt; DETACHED, prepared --commit--&gt; RUNNING (next revision)
 *     ^                   |   ^                      |
 *     +----reattach-------+   +--------abort---------+
 *   (before the old revision went away: the old instance resumes)
 * </pre>
 *
 * <ul>
 *   <li>{@link #detach}: the instance exports its state ({@code exportState}, checked to hold no class
 *       of the plugin, nor may its timers' messages), the cell stops taking turns (its mailbox keeps
 *       filling) and passes the swap on to its children, so that the whole subtree of the plugin's
 *       code joins it. The old instance is kept until {@link #prepare}.</li>
 *   <li>{@link #reattach}: the swap was refused before the old revision went away: the old instance
 *       resumes as if nothing happened.</li>
 *   <li>{@link #prepare}: an instance of the next revision is created and receives the state through
 *       {@code importState}; it does <i>not</i> receive {@code preStart}: its children, timers and
 *       mailbox are still there. An actor that never started (spawned while the swap ran) gets
 *       {@code preStart} instead.</li>
 *   <li>{@link #commit}: the new instance takes turns again; {@link #abort}: it is dropped and the cell
 *       waits, with its exported state, for another revision (a rollback).</li>
 * </ul>
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
    /** The instance that exported it, kept until the next revision is prepared (for a reattach). */
    private Actor previous;
    /** The source before {@link #prepare} replaced it, put back by {@link #abort}. */
    private FactorySource original;
    /** Whether a new revision's instance is prepared and waits for the commit. */
    private boolean prepared;
    /** Whether the cell never started: spawned detached, it gets {@code preStart}, not a state. */
    private boolean fresh;

    CellSwap(ActorCell cell, boolean fresh) {
        this.cell = cell;
        this.fresh = fresh;
    }

    /** Takes the cell out of service for {@code swap} if its code belongs to the revision swapped out. */
    void detach(CodeSwap swap, SwapBarrier barrier) {
        String failure = null;
        try {
            int lifecycle = cell.lifecycle();
            if (lifecycle >= STOPPING || swap.hasJoined(cell.id()) || !swap.owns(cell.source())) {
                return;
            }
            if (lifecycle == DETACHED) { // spawned detached while the swap runs: it never started
                swap.join(new DetachedActor(cell.ref(), cell.source(), null, false, fresh));
                return;
            }
            Actor old = cell.actor();
            Object state = null;
            if (old != null) {
                ClassLoader code = cell.source().codeLoader();
                Thread thread = Thread.currentThread();
                ClassLoader before = thread.getContextClassLoader();
                thread.setContextClassLoader(code);
                try {
                    state = PortableState.require(old.exportState(cell), code);
                    cell.requirePortableTimers(code);
                } catch (Throwable t) {
                    failure = cell.name() + "#" + cell.id() + " (" + old.getClass().getName() + "): " + t;
                } finally {
                    thread.setContextClassLoader(before);
                }
            }
            previous = old;
            original = null;
            swapState = state;
            prepared = false;
            fresh = false;
            cell.actor(null);
            cell.lifecycle(DETACHED);
            Class<?> type = old == null ? null : old.getClass();
            swap.join(new DetachedActor(cell.ref(), cell.source(), type == null ? null : type.getName(),
                    type != null && (type.isHidden() || type.isSynthetic()), false));
            int children = cell.childCount();
            if (children > 0) {
                barrier.register(children);
                cell.tellChildren(new SystemMessage.Detach(swap, barrier));
            }
        } finally {
            if (failure == null) {
                barrier.arrive();
            } else {
                barrier.fail(failure);
            }
        }
    }

    /**
     * The swap was refused before the old revision went away: the old instance resumes.
     *
     * @return whether the cell never started and must now be created from its (unchanged) source
     */
    boolean reattach() {
        if (cell.lifecycle() != DETACHED || prepared) {
            return false;
        }
        Actor old = previous;
        previous = null;
        swapState = null;
        if (old != null) {
            cell.actor(old);
            cell.lifecycle(RUNNING);
            return false;
        }
        if (fresh) {
            fresh = false;
            cell.lifecycle(NEW);
            return true;
        }
        return false;
    }

    void prepare(FactorySource next, SwapBarrier barrier) {
        int lifecycle = cell.lifecycle();
        if (lifecycle >= STOPPING) {
            barrier.arrive(); // it stopped while the swap ran: nothing left to move
            return;
        }
        if (lifecycle != DETACHED) {
            barrier.fail(cell.name() + "#" + cell.id() + ": not waiting for a swap");
            return;
        }
        previous = null; // the old revision is going away: its instance will not come back
        if (original == null) {
            original = cell.source();
        }
        cell.source(next);
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        try {
            ActorFactory factory = next.factory();
            thread.setContextClassLoader(next.codeLoader());
            Actor created = factory.create();
            if (created == null) {
                throw new IllegalStateException("factory " + next.origin() + " returned no actor");
            }
            cell.actor(created);
            if (fresh) {
                created.preStart(cell);
            } else {
                created.importState(cell, swapState);
            }
            prepared = true;
            barrier.arrive();
        } catch (Throwable t) {
            cell.actor(null);
            cell.source(original);
            prepared = false;
            barrier.fail(cell.name() + "#" + cell.id() + ": " + t);
            LOG.error("Actor {}#{} could not take over with {}", cell.name(), cell.id(), next.origin(), t);
        } finally {
            thread.setContextClassLoader(before);
        }
    }

    /**
     * The instance to give {@code postStop} when the cell stops while detached: the old revision's,
     * which exported its state and was the last to run, or {@code null}.
     */
    Actor detachedInstance() {
        return previous;
    }

    void commit() {
        if (cell.lifecycle() == DETACHED && prepared) {
            prepared = false;
            swapState = null;
            original = null;
            fresh = false;
            cell.lifecycle(RUNNING);
        }
    }

    void abort() {
        if (cell.lifecycle() == DETACHED) {
            cell.actor(null);
            if (prepared && original != null) {
                cell.source(original);
            }
            prepared = false;
        }
    }
}
