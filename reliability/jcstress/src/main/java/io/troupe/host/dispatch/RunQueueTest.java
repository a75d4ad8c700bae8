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
 * {@link RunQueue} (a Vyukov ring of 4 slots with an overflow queue): three tasks already wait; two threads
 * each offer one task (so one of them lands in the last slot or in the overflow) and then poll one, as workers
 * that schedule an actor and take their next turn do. Every task must be taken exactly once: a lost task is an
 * actor that never runs again, a task taken twice a turn run twice.
 *
 * <p><b>Threading:</b> one queue per trial; the two threads are the jcstress actors, the arbiter drains.
 */
@JCStressTest
@Outcome(id = "each once", expect = Expect.ACCEPTABLE, desc = "every task taken exactly once")
@Outcome(expect = Expect.FORBIDDEN, desc = "a task lost or taken twice")
@State
public class RunQueueTest {

    private final RunQueue queue = new RunQueue(4);
    private final List<Runnable> offered = new ArrayList<>();
    private final Runnable a = new NamedTask("a");
    private final Runnable b = new NamedTask("b");
    private final List<Runnable> takenByA = new ArrayList<>();
    private final List<Runnable> takenByB = new ArrayList<>();
    private final List<Runnable> drained = new ArrayList<>();

    public RunQueueTest() {
        for (int i = 0; i < 3; i++) {
            Runnable waiting = new NamedTask("waiting" + i);
            offered.add(waiting);
            queue.offer(waiting);
        }
        offered.add(a);
        offered.add(b);
    }

    @Actor
    public void workerA() {
        queue.offer(a);
        take(takenByA);
    }

    @Actor
    public void workerB() {
        queue.offer(b);
        take(takenByB);
    }

    @Arbiter
    public void drain(L_Result r) {
        while (!queue.isEmpty()) {
            take(drained);
        }
        take(drained);
        r.r1 = TaskTally.verdict(offered, List.of(takenByA, takenByB, drained));
    }

    private void take(List<Runnable> into) {
        Runnable task = queue.poll();
        if (task != null) {
            into.add(task);
        }
    }
}
