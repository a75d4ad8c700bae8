package io.troupe.host.dispatch;

/**
 * Runs actor turns. An actor cell submits itself when its mailbox becomes non-empty; the dispatcher
 * runs it on one of its threads.
 *
 * <p><b>Threading:</b> {@link #execute} may be called from any thread and must neither block nor
 * lock; it never runs the task on the calling thread.
 */
public interface Dispatcher {

    /** Queues {@code task} to run once on a dispatcher thread. */
    void execute(Runnable task);
}
