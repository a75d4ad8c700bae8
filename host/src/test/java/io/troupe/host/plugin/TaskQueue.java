package io.troupe.host.plugin;

import java.util.concurrent.ConcurrentLinkedQueue;

import io.troupe.host.dispatch.Dispatcher;

/**
 * A dispatcher that runs actor turns only when the test says so, on the test's thread.
 *
 * <p><b>Threading:</b> tasks may be submitted from any thread; they run on the thread calling
 * {@link #runUntilIdle}.
 */
final class TaskQueue implements Dispatcher {

    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();

    @Override
    public void execute(Runnable task) {
        tasks.add(task);
    }

    /** Runs turns until none is queued. */
    void runUntilIdle() {
        Runnable task;
        int ran = 0;
        while ((task = tasks.poll()) != null) {
            task.run();
            if (++ran > 1_000_000) {
                throw new AssertionError("the runtime does not settle");
            }
        }
    }
}
