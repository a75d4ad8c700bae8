package io.troupe.host.actor;

import static io.troupe.host.actor.ActorCell.DETACHED;
import static io.troupe.host.actor.ActorCell.NEW;
import static io.troupe.host.actor.ActorCell.RUNNING;
import static io.troupe.host.actor.ActorCell.STOPPING;
import static io.troupe.host.actor.ActorCell.SUSPENDED;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.Actor;
import io.troupe.api.ActorFactory;
import io.troupe.api.ErrorCode;

/**
 * The lifecycle transitions of one cell: create, resume and restart after a failure, stop. A restart
 * or a stop first stops the children and completes when the last of them has terminated:
 *
 * <pre>
 *   NEW --create--&gt; RUNNING &lt;--resume-- SUSPENDED --restart--&gt; (children stopped) --&gt; RUNNING
 *                       \                                           or SUSPENDED again
 *                        +--stop--&gt; STOPPING --(children stopped)--&gt; TERMINATED
 * </pre>
 *
 * <p>The cell creates this object for a system message and drops it when it {@linkplain #isSettled()
 * has settled}, so that idle actors do not carry it.
 *
 * <p><b>Threading:</b> confined to the cell's turns, like the cell state it reads and writes through
 * the cell's package-private accessors.
 */
final class CellLifecycle {

    /** The cell's logger, so that log thresholds configured for cells keep applying. */
    private static final Logger LOG = LoggerFactory.getLogger(ActorCell.class);

    /** What to do once the last child has terminated. */
    private enum AfterChildren { NOTHING, STOP, RESTART }

    private final ActorCell cell;
    private AfterChildren afterChildren = AfterChildren.NOTHING;
    private SystemMessage.Restart pendingRestart;

    CellLifecycle(ActorCell cell) {
        this.cell = cell;
    }

    /** Whether no transition waits for children: the cell may drop this object until the next one. */
    boolean isSettled() {
        return afterChildren == AfterChildren.NOTHING && pendingRestart == null;
    }

    void create() {
        if (cell.lifecycle() != NEW) {
            return;
        }
        if (instantiate(true)) {
            cell.lifecycle(RUNNING);
        }
    }

    /**
     * Creates a fresh instance and runs its {@code preStart}; reports a failure to the parent.
     *
     * @param first the cell's first instance: it may take a state its tenant brought from another node
     */
    private boolean instantiate(boolean first) {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        FactorySource source = cell.source();
        try {
            ActorFactory factory = source.factory();
            thread.setContextClassLoader(source.codeLoader());
            Actor created = factory.create();
            if (created == null) {
                throw new IllegalStateException("factory " + source.origin() + " returned no actor");
            }
            cell.actor(created);
            created.preStart(cell);
            cell.restoreState();
            if (first) {
                cell.adoptMovedState();
            }
            return true;
        } catch (Throwable cause) {
            cell.fail(cause, null);
            return false;
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    void resume() {
        if (cell.lifecycle() != SUSPENDED) {
            return;
        }
        if (cell.actor() == null) {
            initiateRestart(new SystemMessage.Restart(null, null));
            return;
        }
        cell.lifecycle(RUNNING);
        cell.childCells().tellAll(SystemMessage.Resume.INSTANCE);
    }

    void initiateRestart(SystemMessage.Restart restart) {
        if (cell.lifecycle() != SUSPENDED) {
            return;
        }
        cell.cancelTimers();
        pendingRestart = restart;
        StopReason reason = new StopReason("parent restarting", ErrorCode.ACTOR_STOPPED, null);
        if (cell.childCells().tellAll(new SystemMessage.Stop(reason))) {
            afterChildren = AfterChildren.RESTART;
        } else {
            finishRestart();
        }
    }

    private void finishRestart() {
        SystemMessage.Restart restart = pendingRestart;
        pendingRestart = null;
        afterChildren = AfterChildren.NOTHING;
        if (cell.lifecycle() == DETACHED) {
            // a hot swap took the failed actor while its children stopped: the next revision's
            // instance, which the swap creates, replaces it instead of a restart on the old code
            return;
        }
        Actor old = cell.actor();
        cell.actor(null);
        cell.nextIncarnation();
        if (old != null) {
            try {
                old.preRestart(cell, restart.cause(), restart.message());
            } catch (Throwable t) {
                LOG.warn("preRestart of {}#{} failed; restarting anyway", cell.name(), cell.id(), t);
            }
        }
        if (instantiate(false)) {
            cell.lifecycle(RUNNING);
        }
    }

    void initiateStop(StopReason reason) {
        if (cell.lifecycle() >= STOPPING) {
            return;
        }
        cell.lifecycle(STOPPING);
        cell.stopReason(reason);
        cell.cancelTimers();
        if (cell.childCells().tellAll(new SystemMessage.Stop(reason))) {
            afterChildren = AfterChildren.STOP;
        } else {
            finishStop();
        }
    }

    private void finishStop() {
        afterChildren = AfterChildren.NOTHING;
        if (cell.actor() != null) {
            cell.saveOnStop();
        }
        Actor last = cell.actor() != null ? cell.actor() : cell.detachedInstance(); // stopped during a swap
        cell.actor(null);
        cell.dropTimers();
        if (last != null) {
            Thread thread = Thread.currentThread();
            ClassLoader previous = thread.getContextClassLoader();
            thread.setContextClassLoader(last.getClass().getClassLoader());
            try {
                last.postStop(cell);
            } catch (Throwable t) {
                LOG.warn("postStop of {}#{} failed", cell.name(), cell.id(), t);
            } finally {
                thread.setContextClassLoader(previous);
            }
        }
        cell.terminate();
    }

    void childTerminated(SystemMessage.ChildTerminated terminated) {
        CellChildren children = cell.childCells();
        if (!children.remove(terminated.child())) {
            return;
        }
        if (children.isEmpty()) {
            if (afterChildren == AfterChildren.STOP) {
                finishStop();
            } else if (afterChildren == AfterChildren.RESTART) {
                finishRestart();
            }
        }
    }

    void adopt(ActorCell child) {
        if (cell.lifecycle() >= STOPPING) {
            child.sendSystem(new SystemMessage.Stop(StopReason.SHUTDOWN));
            return;
        }
        cell.childCells().add(child);
    }
}
