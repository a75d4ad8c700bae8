package io.troupe.host.reactor;

import static io.troupe.host.reactor.LoopWrites.ascii;

import java.nio.ByteBuffer;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.L_Result;

/**
 * {@link OutputQueue} with groups: a worker adds the group "hd", "BODY", "c" (a frame's header,
 * content and CRC) while the connection's loop adds "xx", writes, adds "yy" and writes again, to a
 * socket that takes 3 bytes per write (the loop queues frames of its own too). Then the loop writes
 * until the queue says it is empty. The group must arrive whole ("hdBODYc", nothing between its
 * parts), the loop's buffers in their order, every byte once, and the pending count must come back
 * to 0. Two actors: jcstress skips tests with more actors than the machine has CPUs.
 *
 * <p><b>Threading:</b> one queue per trial; the worker and the loop are the jcstress actors; the
 * arbiter goes on as the loop.
 */
@JCStressTest
@Outcome(id = "written", expect = Expect.ACCEPTABLE, desc = "the group whole, every buffer once, in order, none pending")
@Outcome(expect = Expect.FORBIDDEN, desc = "a group split, bytes lost, duplicated, reordered or miscounted")
@State
public class OutputQueueGroupTest {

    private final OutputQueue queue = new OutputQueue();
    private final SinkChannel socket = new SinkChannel(3);

    @Actor
    public void worker() {
        queue.add(new ByteBuffer[] {ascii("hd"), ascii("BODY"), ascii("c")}, 7);
    }

    @Actor
    public void loop() {
        queue.add(ascii("xx"));
        LoopWrites.writeOnce(queue, socket);
        queue.add(ascii("yy"));
        LoopWrites.writeOnce(queue, socket);
    }

    @Arbiter
    public void drain(L_Result r) {
        LoopWrites.drain(queue, socket);
        r.r1 = verdict(socket.written(), queue.pending());
    }

    private static String verdict(String written, long pending) {
        if (written.length() != 11 || !written.contains("hdBODYc") || !written.contains("xx")
                || !written.contains("yy")) {
            return "wrote \"" + written + "\"";
        }
        if (written.indexOf("xx") > written.indexOf("yy")) {
            return "yy overtook xx: \"" + written + "\"";
        }
        return pending == 0 ? "written" : pending + " bytes counted pending after all were written";
    }
}
