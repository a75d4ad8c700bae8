package io.troupe.host.dispatch;

import java.util.ArrayList;
import java.util.List;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.L_Result;

/**
 * {@link LocalQueue}, a worker's own queue, of capacity 2 and full: its owner pushes a third task (which fits
 * only once the thief has freed the slot of the previous lap) and takes one, while a thief, an idle worker,
 * takes two. Every task pushed must be taken exactly once: a lost task is an actor that never runs again, a task
 * taken twice a turn run twice; a push that finds the ring full must say so (the owner then queues the task in
 * the shared queue), never overwrite a task still waiting.
 *
 * <p><b>Threading:</b> one queue per trial; the owner and the thief are the jcstress actors, the arbiter drains.
 */
@JCStressTest
@Outcome(id = "each once", expect = Expect.ACCEPTABLE, desc = "every task pushed taken exactly once")
@Outcome(expect = Expect.FORBIDDEN, desc = "a task lost or taken twice")
@State
public class LocalQueueLapTest {

    private final LocalQueue queue = new LocalQueue(2);
    private final List<Runnable> pushed = new ArrayList<>();
    private final Runnable third = new NamedTask("third");
    private final List<Runnable> takenByOwner = new ArrayList<>();
    private final List<Runnable> takenByThief = new ArrayList<>();
    private final List<Runnable> drained = new ArrayList<>();
    private boolean thirdPushed;

    public LocalQueueLapTest() {
        for (int i = 0; i < 2; i++) {
            Runnable waiting = new NamedTask("waiting" + i);
            pushed.add(waiting);
            queue.push(waiting);
        }
    }

    @Actor
    public void owner() {
        thirdPushed = queue.push(third);
        take(takenByOwner);
    }

    @Actor
    public void thief() {
        take(takenByThief);
        take(takenByThief);
    }

    @Arbiter
    public void drain(L_Result r) {
        if (thirdPushed) {
            pushed.add(third);
        }
        Runnable task;
        while ((task = queue.take()) != null) {
            drained.add(task);
        }
        r.r1 = TaskTally.verdict(pushed, List.of(takenByOwner, takenByThief, drained));
    }

    private void take(List<Runnable> into) {
        Runnable task = queue.take();
        if (task != null) {
            into.add(task);
        }
    }
}
