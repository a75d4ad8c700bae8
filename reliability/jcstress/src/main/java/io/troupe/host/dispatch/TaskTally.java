package io.troupe.host.dispatch;

import java.util.ArrayList;
import java.util.List;

/**
 * The verdict on the tasks taken from a run queue in a stress trial: {@code "each once"} when every task
 * offered was taken exactly once and nothing else was, else what went wrong (a FORBIDDEN outcome).
 *
 * <p><b>Threading:</b> each taker records into its own list; {@link #verdict} is called by the arbiter.
 */
final class TaskTally {

    private TaskTally() {
    }

    static String verdict(List<Runnable> offered, List<List<Runnable>> takenByEach) {
        List<Runnable> taken = new ArrayList<>();
        takenByEach.forEach(taken::addAll);
        for (Runnable task : offered) {
            long times = taken.stream().filter(t -> t == task).count();
            if (times != 1) {
                return task + " taken " + times + " times";
            }
        }
        return taken.size() == offered.size() ? "each once"
                : taken.size() + " taken for " + offered.size() + " offered";
    }
}
