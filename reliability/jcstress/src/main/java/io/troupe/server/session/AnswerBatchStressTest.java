package io.troupe.server.session;

import java.util.List;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.L_Result;

import io.troupe.protocol.Frame;

/**
 * {@link AnswerBatch}, a session's answers on their way to its loop: a worker adds answers 1 then 2 while the
 * loop runs the flush tasks queued so far, adds answer 3 of its own (as a request's timeout does) and runs them
 * again; then the loop runs what is still queued. Every answer must be written exactly once, 1 before 2, and
 * none may be left behind without a flush task to take it (a lost wake-up would leave a client waiting forever).
 *
 * <p><b>Threading:</b> one batch per trial; the worker and the loop are the jcstress actors; the arbiter goes
 * on as the loop.
 */
@JCStressTest
@Outcome(id = "written", expect = Expect.ACCEPTABLE, desc = "every answer written once, 1 before 2")
@Outcome(expect = Expect.FORBIDDEN, desc = "an answer lost, duplicated, reordered or left without a flush")
@State
public class AnswerBatchStressTest {

    private final LoopTasks connection = new LoopTasks();
    private final AnswerBatch batch = new AnswerBatch(connection);

    @Actor
    public void worker() {
        batch.add(answer(1));
        batch.add(answer(2));
    }

    @Actor
    public void loop() {
        connection.runTasks();
        batch.add(answer(3));
        connection.runTasks();
    }

    @Arbiter
    public void drain(L_Result r) {
        connection.runTasks();
        List<Long> ids = connection.written().stream().map(Frame::corrId).toList();
        if (ids.size() != 3 || !ids.containsAll(List.of(1L, 2L, 3L))) {
            r.r1 = "wrote " + ids;
        } else if (ids.indexOf(1L) > ids.indexOf(2L)) {
            r.r1 = "2 overtook 1: " + ids;
        } else {
            r.r1 = "written";
        }
    }

    private static Frame answer(long corrId) {
        return Frame.reply(corrId, "echo", new byte[] {(byte) corrId});
    }
}
