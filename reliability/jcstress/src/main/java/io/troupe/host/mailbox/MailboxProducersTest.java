package io.troupe.host.mailbox;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.LL_Result;

/**
 * {@link Mailbox}'s producer side: two producers race, each offering messages (the head exchange and the
 * capacity compare-and-set) and system messages (the lock-free stack): producer A sends a1, system message
 * x, a2; producer B sends b, system message y. The consumer then drains both lanes. Every message must
 * come out exactly once, one producer's in its order, and the mailbox must count nothing left.
 *
 * <p>Result: the verdict on the ordinary lane, then on the system lane.
 *
 * <p><b>Threading:</b> one mailbox per trial; the producers are the jcstress actors, the arbiter is the
 * consumer.
 */
@JCStressTest
@Outcome(id = "delivered, delivered", expect = Expect.ACCEPTABLE, desc = "every message polled once, in order")
@Outcome(expect = Expect.FORBIDDEN, desc = "a lost, duplicated or reordered message, or a miscounted mailbox")
@State
public class MailboxProducersTest {

    private final Mailbox mailbox = new Mailbox(8);

    @Actor
    public void producerA() {
        mailbox.offer(new Envelope("a1", null));
        mailbox.offerSystem("x");
        mailbox.offer(new Envelope("a2", null));
    }

    @Actor
    public void producerB() {
        mailbox.offer(new Envelope("b", null));
        mailbox.offerSystem("y");
    }

    @Arbiter
    public void drain(LL_Result r) {
        StringBuilder polled = new StringBuilder();
        for (Envelope envelope; (envelope = mailbox.poll()) != null; ) {
            polled.append(envelope.message()).append(' ');
        }
        StringBuilder system = new StringBuilder();
        while (mailbox.hasSystemMessages()) {
            system.append(mailbox.pollSystem()).append(' ');
        }
        r.r1 = MessageTrace.verdict(polled.toString(), mailbox.size(), "a1", "a2", "b");
        r.r2 = MessageTrace.verdict(system.toString(), 0, "x", "y");
    }
}
