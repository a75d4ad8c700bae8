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
 * {@link FairRunQueue}, the tenant-fair run queue: a task of tenant "globex" waits; two threads meet tenant
 * "acme" for the first time at once (both create its lane, one wins the publication), each queues a task in the
 * lane it got and then polls one turn, leaving it at once. Every task must be taken exactly once: a task
 * queued in a lane no poll scans (the loser's) would never run.
 *
 * <p><b>Threading:</b> one queue per trial; the two threads are the jcstress actors, the arbiter drains as
 * another worker.
 */
@JCStressTest
@Outcome(id = "each once", expect = Expect.ACCEPTABLE, desc = "every task taken exactly once")
@Outcome(expect = Expect.FORBIDDEN, desc = "a task lost (queued in an unscanned lane) or taken twice")
@State
public class FairRunQueueTest {

    private static final int CAP = 2;

    private final FairRunQueue queue = new FairRunQueue(16);
    private final Runnable globex;
    private final List<Runnable> offered = new ArrayList<>();
    private final List<Runnable> takenByA = new ArrayList<>();
    private final List<Runnable> takenByB = new ArrayList<>();
    private final List<Runnable> drained = new ArrayList<>();
    private final NamedTask[] acme = new NamedTask[2];

    public FairRunQueueTest() {
        globex = new NamedTask("globex", queue.group("globex"));
        queue.offer(globex);
        offered.add(globex);
    }

    @Actor
    public void schedulerA() {
        acme[0] = new NamedTask("acme-a", queue.group("acme"));
        queue.offer(acme[0]);
        take(takenByA);
    }

    @Actor
    public void schedulerB() {
        acme[1] = new NamedTask("acme-b", queue.group("acme"));
        queue.offer(acme[1]);
        take(takenByB);
    }

    @Arbiter
    public void drain(L_Result r) {
        for (int i = 0; i < 4; i++) {
            take(drained);
        }
        offered.add(acme[0]);
        offered.add(acme[1]);
        r.r1 = TaskTally.verdict(offered, List.of(takenByA, takenByB, drained));
    }

    private void take(List<Runnable> into) {
        RunGroup[] entered = new RunGroup[1];
        Runnable task = queue.poll(lane -> entered[0] = lane, CAP);
        if (task != null) {
            into.add(task);
        }
        if (entered[0] != null) {
            entered[0].leave();
        }
    }
}
