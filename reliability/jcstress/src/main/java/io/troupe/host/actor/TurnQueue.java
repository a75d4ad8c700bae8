package io.troupe.host.actor;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import io.troupe.host.dispatch.Dispatcher;

/**
 * A dispatcher whose turns the stress test's actors run by hand: {@link #execute} only queues, and each
 * {@link #runOne()} runs the oldest queued turn on the calling thread, so that two threads can race to run
 * turns exactly as two workers of a pool do. It counts a task submitted while it was already queued: an actor
 * scheduled twice.
 *
 * <p><b>Threading:</b> {@link #execute} and {@link #runOne} from any thread (a lock-free queue).
 */
final class TurnQueue implements Dispatcher {

    private final ConcurrentLinkedQueue<Runnable> turns = new ConcurrentLinkedQueue<>();
    private final AtomicInteger doubleSchedules = new AtomicInteger();

    @Override
    public void execute(Runnable task) {
        if (turns.contains(task)) {
            doubleSchedules.incrementAndGet();
        }
        turns.add(task);
    }

    /** Runs the oldest queued turn, if any; returns whether there was one. */
    boolean runOne() {
        Runnable turn = turns.poll();
        if (turn == null) {
            return false;
        }
        turn.run();
        return true;
    }

    /** Runs turns until none is queued; at most {@code limit}, so that a runaway schedule ends the trial. */
    int runAll(int limit) {
        int ran = 0;
        while (ran < limit && runOne()) {
            ran++;
        }
        return ran;
    }

    /** How often a task was submitted while already queued. */
    int doubleSchedules() {
        return doubleSchedules.get();
    }
}
