package io.troupe.host.mailbox;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZI_Result;

/**
 * {@link Mailbox}'s bound: two producers race for the last free place of a mailbox of capacity 2 that holds
 * one envelope. Exactly one of them may win; the mailbox then counts 2. Both winning overfills it, neither
 * winning refuses a message there was room for.
 *
 * <p><b>Threading:</b> one jcstress state per trial; two producer actors, the arbiter reads the count.
 */
@JCStressTest
@Outcome(id = {"true, false, 2", "false, true, 2"}, expect = Expect.ACCEPTABLE, desc = "one producer took the place")
@Outcome(id = "true, true, .*", expect = Expect.FORBIDDEN, desc = "the mailbox holds more than its capacity")
@Outcome(id = "false, false, .*", expect = Expect.FORBIDDEN, desc = "a message refused although there was room")
@Outcome(expect = Expect.FORBIDDEN, desc = "the count disagrees with the offers accepted")
@State
public class MailboxCapacityTest {

    private final Mailbox mailbox = new Mailbox(2);

    public MailboxCapacityTest() {
        mailbox.offer(new Envelope("queued", null));
    }

    @Actor
    public void producerA(ZZI_Result r) {
        r.r1 = mailbox.offer(new Envelope("a", null));
    }

    @Actor
    public void producerB(ZZI_Result r) {
        r.r2 = mailbox.offer(new Envelope("b", null));
    }

    @Arbiter
    public void count(ZZI_Result r) {
        r.r3 = mailbox.size();
    }
}
