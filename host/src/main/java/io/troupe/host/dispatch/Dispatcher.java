package io.troupe.host.dispatch;

/**
 * Runs actor turns. An actor cell submits itself when its mailbox becomes non-empty; the dispatcher
 * runs it on one of its threads.
 *
 * <p><b>Threading:</b> {@link #execute} may be called from any thread and must neither block nor
 * lock; it never runs the task inside the call (a dispatcher thread that queues a task may run it
 * itself, after its current task).
 */
public interface Dispatcher {

    /** Queues {@code task} to run once on a dispatcher thread. */
    void execute(Runnable task);

    /**
     * Queues {@code task}, which has just run and has more to do, behind the tasks already waiting,
     * so that it does not keep its thread from them (an actor that used up its throughput). By
     * default the same as {@link #execute}.
     */
    default void requeue(Runnable task) {
        execute(task);
    }

    /**
     * The run group of {@code tenant}, for tasks that name it ({@link Grouped}) to be served fairly
     * against other tenants'; {@code null} when this dispatcher does not schedule by tenant (the
     * default).
     */
    default RunGroup group(String tenant) {
        return null;
    }
}
