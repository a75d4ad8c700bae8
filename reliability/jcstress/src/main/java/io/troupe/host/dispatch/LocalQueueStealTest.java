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
 * {@link LocalQueue} with one task waiting: its owner pushes two more and takes twice, as a worker whose actor
 * hands messages on and then runs them, while a thief takes twice. The owner's pushes fit (capacity 4); every
 * task must be taken exactly once, whoever takes it.
 *
 * <p><b>Threading:</b> one queue per trial; the owner and the thief are the jcstress actors, the arbiter drains.
 */
@JCStressTest
@Outcome(id = "each once", expect = Expect.ACCEPTABLE, desc = "every task pushed taken exactly once")
@Outcome(expect = Expect.FORBIDDEN, desc = "a task lost or taken twice, or a push refused with room left")
@State
public class LocalQueueStealTest {

    private final LocalQueue queue = new LocalQueue(4);
    private final List<Runnable> pushed = new ArrayList<>();
    private final Runnable a = new NamedTask("a");
    private final Runnable b = new NamedTask("b");
    private final List<Runnable> takenByOwner = new ArrayList<>();
    private final List<Runnable> takenByThief = new ArrayList<>();
    private final List<Runnable> drained = new ArrayList<>();
    private boolean refused;

    public LocalQueueStealTest() {
        Runnable waiting = new NamedTask("waiting");
        pushed.add(waiting);
        queue.push(waiting);
        pushed.add(a);
        pushed.add(b);
    }

    @Actor
    public void owner() {
        refused |= !queue.push(a);
        refused |= !queue.push(b);
        take(takenByOwner);
        take(takenByOwner);
    }

    @Actor
    public void thief() {
        take(takenByThief);
        take(takenByThief);
    }

    @Arbiter
    public void drain(L_Result r) {
        Runnable task;
        while ((task = queue.take()) != null) {
            drained.add(task);
        }
        r.r1 = refused ? "a push refused with room left"
                : TaskTally.verdict(pushed, List.of(takenByOwner, takenByThief, drained));
    }

    private void take(List<Runnable> into) {
        Runnable task = queue.take();
        if (task != null) {
            into.add(task);
        }
    }
}
