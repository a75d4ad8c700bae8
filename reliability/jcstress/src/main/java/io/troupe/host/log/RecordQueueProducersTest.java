package io.troupe.host.log;

import java.util.concurrent.TimeUnit;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.L_Result;

/**
 * {@link RecordQueue}'s producers: two threads log two records each (a1, a2 and b1, b2, of
 * {@value LogRecords#RECORD_BYTES} bytes) into a queue whose first segment holds 4 KiB, so that one of them
 * finds it full, seals it and links the next segment while the other claims, copies or waits for that successor.
 * The logger thread then writes everything. Every record must be written exactly once and whole (not torn or
 * interleaved with another), in each producer's order, and none dropped (the cap is far away).
 *
 * <p><b>Threading:</b> one queue per trial; the producers are the jcstress actors, the arbiter is the logger
 * thread.
 */
@JCStressTest
@Outcome(id = "written", expect = Expect.ACCEPTABLE, desc = "every record written once, whole, in order")
@Outcome(expect = Expect.FORBIDDEN, desc = "a record lost, duplicated, torn or reordered")
@State
public class RecordQueueProducersTest {

    private final RecordQueue queue = new RecordQueue(RecordQueue.MIN_CAP_BYTES, TimeUnit.SECONDS.toNanos(5));
    private final CollectingOutput out = new CollectingOutput();

    @Actor
    public void producerA() {
        queue.offer(LogRecords.record('a', '1'));
        queue.offer(LogRecords.record('a', '2'));
    }

    @Actor
    public void producerB() {
        queue.offer(LogRecords.record('b', '1'));
        queue.offer(LogRecords.record('b', '2'));
    }

    @Arbiter
    public void drain(L_Result r) {
        queue.drain(out);
        r.r1 = LogRecords.verdict(out.written(), queue.dropped(), "a1", "a2", "b1", "b2");
    }
}
