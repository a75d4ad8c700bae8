package io.troupe.host.actor;

import java.util.Map;

import io.troupe.host.dispatch.Worker;
import io.troupe.host.log.RecordContext;

/**
 * The log entries of an actor's turn: a record written by a worker while it runs a turn of one of
 * this system's actors carries {@value #ACTOR}{@code =name#id} and, for a tenant's actor,
 * {@value #TENANT}{@code =tenant}, so that every line a plugin logs names the actor and tenant it
 * served. Nothing is spent on turns that do not log: the entries are looked up when a record is
 * written, from the task the worker runs.
 *
 * <p><b>Threading:</b> {@link #entries()} on any thread; on a worker it reads that worker's own task.
 */
public final class TurnRecordContext implements RecordContext {

    /** The key of the actor, as {@code name#id}. */
    public static final String ACTOR = "actor";
    /** The key of the actor's tenant, left out for the runtime's own actors. */
    public static final String TENANT = "tenant";

    private final ActorSystem system;

    public TurnRecordContext(ActorSystem system) {
        this.system = system;
    }

    @Override
    public Map<String, String> entries() {
        if (Thread.currentThread() instanceof Worker worker && worker.runningTask() instanceof ActorCell cell
                && cell.system() == system) {
            return cell.recordEntries();
        }
        return null;
    }
}
