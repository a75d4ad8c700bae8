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
 * {@link OutputQueue}, a connection's pending output: "bb" is pending; a producer adds "aa" then "AA" while the
 * connection's loop writes twice to a socket that takes 3 bytes per write. Then the loop writes until the queue
 * says it is empty. Every byte must be written exactly once, each buffer whole and in its producer's
 * order, and the pending count must come back to 0: a buffer the loop does not see ({@code isEmpty()} true while
 * one waits) would stall the connection (a lost wake-up), a miscount would cut off a healthy client.
 *
 * <p><b>Threading:</b> one queue per trial; the producer and the loop are the jcstress actors; the arbiter goes
 * on as the loop.
 */
@JCStressTest
@Outcome(id = "written", expect = Expect.ACCEPTABLE, desc = "every buffer written once, in order, none pending")
@Outcome(expect = Expect.FORBIDDEN, desc = "bytes lost, duplicated, reordered or miscounted")
@State
public class OutputQueueTest {

    private final OutputQueue queue = new OutputQueue();
    private final SinkChannel socket = new SinkChannel(3);

    public OutputQueueTest() {
        queue.add(ascii("bb"));
    }

    @Actor
    public void producer() {
        queue.add(ascii("aa"));
        queue.add(ascii("AA"));
    }

    @Actor
    public void loop() {
        LoopWrites.writeOnce(queue, socket);
        LoopWrites.writeOnce(queue, socket);
    }

    @Arbiter
    public void drain(L_Result r) {
        LoopWrites.drain(queue, socket);
        r.r1 = verdict(socket.written(), queue.pending());
    }

    private static String verdict(String written, long pending) {
        if (written.length() != 6 || !written.contains("aa") || !written.contains("AA") || !written.contains("bb")) {
            return "wrote \"" + written + "\"";
        }
        if (written.indexOf("aa") > written.indexOf("AA")) {
            return "AA overtook aa: \"" + written + "\"";
        }
        return pending == 0 ? "written" : pending + " bytes counted pending after all were written";
    }
}
