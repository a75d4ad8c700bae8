package io.troupe.distribution.history;

import static io.troupe.distribution.history.ChatChecker.HISTORY;
import static io.troupe.distribution.history.ChatChecker.PUSH;
import static io.troupe.distribution.history.ChatChecker.SAY;
import static io.troupe.distribution.history.CounterCheckerTest.assertKinds;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The chat checker on histories written by hand: valid ones pass, and each kind of violation is found. */
class ChatCheckerTest {

    private static final String ROOM = "alpha/lobby";

    /** Process {@code p} says {@code token}: pushed to the speaker, then acknowledged. */
    private static Script said(Script script, int p, String token) {
        long op = script.invoke(p, SAY, ROOM, token);
        return script.observe(p, PUSH, ROOM, token).ok(op, "ok");
    }

    @Test
    void messagesPushedToMembersAndKeptAcrossAKillAreValid() {
        Script script = new Script();
        said(script, 1, "p1.1");
        said(script, 2, "p2.1").observe(1, PUSH, ROOM, "p2.1");
        long lost = script.invoke(1, SAY, ROOM, "p1.2");
        script.observe(1, PUSH, ROOM, "p1.2").observe(2, PUSH, ROOM, "p1.2").info(lost, "connection lost");
        script.call(3, HISTORY, ROOM, "", "p1.1 p2.1").fault(Faults.KILL);
        script.call(3, HISTORY, ROOM, "", "p1.1 p2.1");
        said(script, 2, "p2.2");
        script.call(3, HISTORY, ROOM, "", "p1.1 p2.1 p2.2");

        CheckReport report = script.check(new ChatChecker(ChatChecker.SAMPLE_CAP));

        assertTrue(report.valid(), report::toString);
    }

    @Test
    void anAcknowledgedMessageMissingAfterAKillIsFound() {
        Script script = new Script();
        said(script, 1, "p1.1");
        said(script, 1, "p1.2").fault(Faults.KILL);
        script.call(3, HISTORY, ROOM, "", "p1.1");

        assertKinds(script.check(new ChatChecker(ChatChecker.SAMPLE_CAP)), "lost-acknowledged");
    }

    @Test
    void aMessageTwiceInAHistoryIsFound() {
        Script script = new Script();
        said(script, 1, "p1.1");
        script.call(3, HISTORY, ROOM, "", "p1.1 p1.1");

        assertKinds(script.check(new ChatChecker(ChatChecker.SAMPLE_CAP)), "duplicate");
    }

    @Test
    void aMessagePushedTwiceToOneMemberIsFound() {
        Script script = new Script();
        said(script, 1, "p1.1").observe(1, PUSH, ROOM, "p1.1");

        assertKinds(script.check(new ChatChecker(ChatChecker.SAMPLE_CAP)), "duplicate");
    }

    @Test
    void aMessageNobodySaidOrWhoseSayFailedIsFound() {
        Script script = new Script();
        said(script, 1, "p1.1");
        script.fail(script.invoke(1, SAY, ROOM, "p1.2"), "ERROR bad.request: not a member");
        script.call(3, HISTORY, ROOM, "", "p1.1 p1.2").observe(2, PUSH, ROOM, "p9.9");

        assertKinds(script.check(new ChatChecker(ChatChecker.SAMPLE_CAP)), "phantom");
    }

    @Test
    void aMessageBeforeOneAcknowledgedBeforeItWasSaidIsFound() {
        Script script = new Script();
        said(script, 1, "p1.1");
        said(script, 2, "p2.1");
        script.call(3, HISTORY, ROOM, "", "p2.1 p1.1");

        assertKinds(script.check(new ChatChecker(ChatChecker.SAMPLE_CAP)), "out-of-order");
    }

    @Test
    void twoHistoriesDisagreeingOnTheOrderOfConcurrentMessagesAreFound() {
        Script script = new Script();
        long first = script.invoke(1, SAY, ROOM, "p1.1");
        long second = script.invoke(2, SAY, ROOM, "p2.1");
        script.observe(1, PUSH, ROOM, "p1.1").observe(2, PUSH, ROOM, "p2.1").ok(first, "ok").ok(second, "ok");
        script.call(3, HISTORY, ROOM, "", "p1.1 p2.1").call(3, HISTORY, ROOM, "", "p2.1 p1.1");

        assertKinds(script.check(new ChatChecker(ChatChecker.SAMPLE_CAP)), "history-rewritten");
    }

    @Test
    void aFullHistoryMayLoseItsFrontButNothingElse() {
        Script valid = new Script();
        said(said(said(valid, 1, "p1.1"), 1, "p1.2"), 1, "p1.3");
        valid.call(3, HISTORY, ROOM, "", "p1.2 p1.3");
        CheckReport report = valid.check(new ChatChecker(2));
        assertTrue(report.valid(), report::toString);

        Script gap = new Script();
        said(said(said(gap, 1, "p1.1"), 1, "p1.2"), 1, "p1.3");
        gap.call(3, HISTORY, ROOM, "", "p1.1 p1.3");
        assertKinds(gap.check(new ChatChecker(2)), "lost-acknowledged");
    }

    @Test
    void aPushThatReachesTheSpeakerAfterItsOkIsValid() {
        Script script = new Script();
        script.call(1, SAY, ROOM, "p1.1", "ok").observe(1, PUSH, ROOM, "p1.1");
        script.call(3, HISTORY, ROOM, "", "p1.1");

        CheckReport report = script.check(new ChatChecker(ChatChecker.SAMPLE_CAP));

        assertTrue(report.valid(), report::toString);
    }
}
