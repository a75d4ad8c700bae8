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
 * {@link RecordQueue} between a producer and the logger thread: record a0 is queued; a thread logs a1, a2, a3
 * (of {@value LogRecords#RECORD_BYTES} bytes, so that the 4 KiB first segment fills and is sealed by the
 * producer) while the logger thread drains twice (sealing the open segment itself, linking its successor and
 * writing sealed segments, some perhaps still being copied into). Then the logger drains again. Every record
 * must be written exactly once, whole and in order, and none dropped.
 *
 * <p><b>Threading:</b> one queue per trial; the producer and the logger thread are the jcstress actors, the
 * arbiter is the logger thread again.
 */
@JCStressTest
@Outcome(id = "written", expect = Expect.ACCEPTABLE, desc = "every record written once, whole, in order")
@Outcome(expect = Expect.FORBIDDEN, desc = "a record lost, duplicated, torn or reordered")
@State
public class RecordQueueDrainTest {

    private final RecordQueue queue = new RecordQueue(RecordQueue.MIN_CAP_BYTES, TimeUnit.SECONDS.toNanos(5));
    private final CollectingOutput out = new CollectingOutput();

    public RecordQueueDrainTest() {
        queue.offer(LogRecords.record('a', '0'));
    }

    @Actor
    public void producer() {
        queue.offer(LogRecords.record('a', '1'));
        queue.offer(LogRecords.record('a', '2'));
        queue.offer(LogRecords.record('a', '3'));
    }

    @Actor
    public void logger() {
        queue.drain(out);
        queue.drain(out);
    }

    @Arbiter
    public void drain(L_Result r) {
        queue.drain(out);
        r.r1 = LogRecords.verdict(out.written(), queue.dropped(), "a0", "a1", "a2", "a3");
    }
}
