package io.troupe.host.actor;

import static io.troupe.host.actor.ActorCell.DETACHED;
import static io.troupe.host.actor.ActorCell.NEW;
import static io.troupe.host.actor.ActorCell.RUNNING;
import static io.troupe.host.actor.ActorCell.STOPPING;

import java.util.ArrayList;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.Actor;
import io.troupe.api.ActorFactory;
import io.troupe.api.ErrorCode;

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
 *       code joins it. The old instance is kept until {@link #prepare}. A cell that never started
 *       (its Create not processed yet, or spawned detached) joins as <i>fresh</i>. A cell that failed
 *       and waits for its parent's decision is swapped as it is: the failed instance exports, and the
 *       next revision's instance takes the place of the restart (a directive that arrives while the
 *       cell is detached finds it no longer suspended).</li>
 *   <li>{@link #reattach}: the swap was refused before the old revision went away: the old instance
 *       resumes as if nothing happened; a fresh cell starts on its (old) source.</li>
 *   <li>{@link #prepare}: an instance of the next revision is created and receives the state through
 *       {@code importState}; it does <i>not</i> receive {@code preStart}: its children, timers and
 *       mailbox are still there. A fresh cell's instance receives {@code preStart}, then its stored
 *       state (as any actor that starts), at the commit, so that nothing it starts survives an abort.
 *       A durable cell whose old instance never read the store (its start failed first) exported no
 *       state of the actor's: the new instance imports what the store holds instead.</li>
 *   <li>{@link #commit}: the new instance takes turns again; {@link #abort}: it is dropped, with the
 *       children it spawned and the timers it started in {@code importState}, and the cell waits, with
 *       its exported state, for another revision (a rollback).</li>
 *   <li>{@link #startOn}: a cell created from the swapped code while the swap ran (see
 *       {@link LateActors}) starts, with {@code preStart}, on the source the swap's decision gives.</li>
 * </ul>
 *
 * <p><b>Threading:</b> confined to the cell's turns, like the cell state it reads and writes through
 * the cell's package-private accessors.
 */
final class CellSwap {

    /** The cell's logger, so that log thresholds configured for cells keep applying. */
    private static final Logger LOG = LoggerFactory.getLogger(ActorCell.class);

    private final ActorCell cell;
    /**
     * The open swap that made this cell start detached, until the cell is handed to it as a late
     * actor; null after that, so that the cell keeps no swap (and no old revision) reachable.
     */
    private CodeSwap lateFor;
    /** State exported by the previous revision's instance, kept until the swap commits. */
    private Object swapState;
    /**
     * Whether {@link #swapState} derives from the store (or the actor is not durable): false when the
     * exporting instance never read it (its start failed first), so the next revision reads the store.
     */
    private boolean stateRestored;
    /** The instance that exported it, kept until the next revision is prepared (for a reattach). */
    private Actor previous;
    /** The source before {@link #prepare} replaced it, put back by {@link #abort}. */
    private FactorySource original;
    /** Whether a new revision's instance is prepared and waits for the commit. */
    private boolean prepared;
    /** The state the old instance exported, while the cell waits for the next revision; else null. */
    Object exportedState() {
        return swapState;
    }

    /** Whether the cell never started: it gets {@code preStart}, not a state. */
    private boolean fresh;
    /**
     * The swap the cell joined last, until that swap is over for it (commit, reattach, start): a
     * reattach or start sent by an older swap's decision (a late actor's, from the spawning thread)
     * is then ignored, since the newer swap decides for the cell.
     */
    private CodeSwap joined;
    /** Whether {@code importState} is running: what it spawns and schedules is recorded. */
    private boolean importing;
    /** Children spawned and timer keys started by the prepared instance's {@code importState}. */
    private List<ActorCell> importedChildren;
    private List<String> importedTimers;

    CellSwap(ActorCell cell, boolean fresh, CodeSwap lateFor) {
        this.cell = cell;
        this.fresh = fresh;
        this.lateFor = lateFor;
    }

    /** The open swap this cell is to wait in as a late actor, or null. */
    CodeSwap lateFor() {
        return lateFor;
    }

    /** Returns {@link #lateFor()} and forgets it: the cell is being handed to that swap. */
    CodeSwap takeLateFor() {
        CodeSwap swap = lateFor;
        lateFor = null;
        return swap;
    }

    /** Takes the cell out of service for {@code swap} if its code belongs to the revision swapped out. */
    void detach(CodeSwap swap, SwapBarrier barrier) {
        String failure = null;
        try {
            int lifecycle = cell.lifecycle();
            if (lifecycle >= STOPPING || swap.hasJoined(cell.id()) || !swap.takesPart(cell.id(), cell.source())) {
                return;
            }
            if (lifecycle == NEW || (lifecycle == DETACHED && fresh)) {
                joinFresh(swap);
                return;
            }
            if (lifecycle == DETACHED) {
                return; // still waiting for an earlier swap of this code
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
            Class<?> type = old == null ? null : old.getClass();
            if (!swap.tryJoin(new DetachedActor(cell.ref(), cell.source(), cell.tenant(),
                    type == null ? null : type.getName(), type != null && isLambda(type), false))) {
                failure = null; // the swap was refused meanwhile: the actor goes on as it was
                return;
            }
            joined = swap;
            previous = old;
            original = null;
            swapState = state;
            stateRestored = cell.stateRestored();
            prepared = false;
            fresh = false;
            cell.actor(null);
            cell.lifecycle(DETACHED);
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
     * A cell that never started joins: its class is learnt from a throwaway instance of its factory
     * (the old revision is still loaded), so that the next revision can create it from that class.
     */
    private void joinFresh(CodeSwap swap) {
        String actorClass = null;
        boolean lambda = false;
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        try {
            thread.setContextClassLoader(cell.source().codeLoader());
            Actor probe = cell.source().factory().create();
            if (probe != null) {
                actorClass = probe.getClass().getName();
                lambda = isLambda(probe.getClass());
            }
        } catch (Throwable t) {
            LOG.debug("The factory of {}#{} could not create an instance to learn its class", cell.name(), cell.id(),
                    t);
        } finally {
            thread.setContextClassLoader(before);
        }
        if (swap.tryJoin(new DetachedActor(cell.ref(), cell.source(), cell.tenant(), actorClass, lambda, true))) {
            joined = swap;
            fresh = true;
            cell.lifecycle(DETACHED); // a Create still queued finds the cell no longer NEW
        }
    }

    private static boolean isLambda(Class<?> type) {
        return type.isHidden() || type.isSynthetic();
    }

    /**
     * The swap {@code from} was refused before the old revision went away: the old instance resumes.
     *
     * @return whether the cell never started and must now be created from its (unchanged) source
     */
    boolean reattach(CodeSwap from) {
        if (cell.lifecycle() != DETACHED || prepared || (joined != null && joined != from)) {
            return false;
        }
        joined = null;
        Actor old = previous;
        previous = null;
        swapState = null;
        if (old != null) {
            cell.actor(old);
            if (stateRestored) {
                cell.stateCarriedOver(); // the same instance, with the state it had: it writes as before
            }
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

    /**
     * A late actor (see {@link LateActors}) starts on {@code next}, as {@code from} decided.
     *
     * @return whether the cell must now be created from {@code next} (with {@code preStart})
     */
    boolean startOn(FactorySource next, CodeSwap from) {
        if (cell.lifecycle() != DETACHED || !fresh || prepared || (joined != null && joined != from)) {
            return false;
        }
        joined = null;
        fresh = false;
        cell.source(next);
        cell.lifecycle(NEW);
        return true;
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
            if (!fresh) {
                importing = true;
                try {
                    if (stateRestored) {
                        created.importState(cell, swapState);
                        cell.stateCarriedOver();
                    } else {
                        restoreInstead(next);
                    }
                } finally {
                    importing = false;
                }
            }
            prepared = true;
            barrier.arrive();
        } catch (Throwable t) {
            undoImport();
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
     * The old instance never read the store (its start failed before): what it exported is not the
     * actor's state, so the new instance imports what the store holds. If the store cannot be read now,
     * the new instance stays without a state the store saw: its first durable turn fails (nothing is
     * written) and its restart reads the store.
     */
    private void restoreInstead(FactorySource next) throws Exception {
        try {
            cell.restoreState();
        } catch (StoreTrouble.Told e) {
            // the store's episode is told once (StoreTrouble); the actor's own failure follows at its first turn
            LOG.debug("Actor {}#{} could not read its stored state while {} took it over: {}", cell.name(),
                    cell.id(), next.origin(), e.toString());
        }
    }

    /** Records a child spawned during {@code importState}, so that an abort can stop it. */
    void childSpawned(ActorCell child) {
        if (importing) {
            if (importedChildren == null) {
                importedChildren = new ArrayList<>();
            }
            importedChildren.add(child);
        }
    }

    /** Records a timer started during {@code importState}, so that an abort can cancel it. */
    void timerStarted(String key) {
        if (importing) {
            if (importedTimers == null) {
                importedTimers = new ArrayList<>();
            }
            importedTimers.add(key);
        }
    }

    private void undoImport() {
        if (importedChildren != null) {
            StopReason reason = new StopReason("its parent's swap was rolled back", ErrorCode.ACTOR_STOPPED, null);
            importedChildren.forEach(child -> child.sendSystem(new SystemMessage.Stop(reason)));
        }
        if (importedTimers != null) {
            importedTimers.forEach(key -> cell.timers().cancel(key));
        }
        importedChildren = null;
        importedTimers = null;
    }

    /**
     * The instance to give {@code postStop} when the cell stops while detached: the old revision's,
     * which exported its state and was the last to run, or {@code null}.
     */
    Actor detachedInstance() {
        return previous;
    }

    void commit() {
        if (cell.lifecycle() != DETACHED || !prepared) {
            return;
        }
        prepared = false;
        swapState = null;
        original = null;
        importedChildren = null;
        importedTimers = null;
        joined = null;
        if (!fresh) {
            cell.lifecycle(RUNNING);
            return;
        }
        fresh = false;
        Actor created = cell.actor();
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        thread.setContextClassLoader(cell.source().codeLoader());
        try {
            created.preStart(cell);
            cell.restoreState(); // it never read the store: it starts from the stored state, as any new actor
            cell.lifecycle(RUNNING);
        } catch (Throwable cause) {
            cell.fail(cause, null); // as any actor whose preStart fails: its parent decides
        } finally {
            thread.setContextClassLoader(before);
        }
    }

    void abort() {
        if (cell.lifecycle() == DETACHED) {
            undoImport();
            cell.actor(null);
            if (prepared && original != null) {
                cell.source(original);
            }
            prepared = false;
        }
    }
}
