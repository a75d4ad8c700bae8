package io.troupe.host.actor;

import java.util.concurrent.ConcurrentLinkedQueue;

import io.troupe.host.dispatch.Dispatcher;

/**
 * A dispatcher that runs nothing until the test says so, on the test's own thread: actor turns become
 * deterministic steps.
 *
 * <p><b>Threading:</b> tasks may be submitted from any thread; they run only on the thread that calls
 * {@link #runOne} or {@link #runUntilIdle} (the test thread).
 */
final class ManualDispatcher implements Dispatcher {

    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();

    @Override
    public void execute(Runnable task) {
        tasks.add(task);
    }

    /** Runs the oldest queued task; returns whether there was one. */
    boolean runOne() {
        Runnable task = tasks.poll();
        if (task == null) {
            return false;
        }
        task.run();
        return true;
    }

    /** Runs tasks until none is queued. */
    int runUntilIdle() {
        int ran = 0;
        while (runOne()) {
            if (++ran > 1_000_000) {
                throw new AssertionError("the runtime does not settle: more than a million turns");
            }
        }
        return ran;
    }

    int queued() {
        return tasks.size();
    }
}
