package io.troupe.host.mailbox;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.L_Result;

/**
 * {@link Mailbox} between a producer and the consumer: the producer sends a1, system message s1, a2 while the
 * consumer, as an actor's turn does, takes system messages first and polls, three times. A message linked after
 * the consumer saw {@code null} must still be found later; {@link Mailbox#isEmpty()} and
 * {@link Mailbox#hasSystemMessages()} must not say "nothing" while a message waits (the cell would go idle with
 * it queued: a lost wake-up). After the race the consumer drains. Every message must come out exactly once, in
 * order, and nothing may be counted left.
 *
 * <p><b>Threading:</b> one mailbox per trial; the producer and the consumer are the jcstress actors, the
 * arbiter goes on as the consumer.
 */
@JCStressTest
@Outcome(id = "delivered", expect = Expect.ACCEPTABLE, desc = "every message polled once, a1 before a2")
@Outcome(expect = Expect.FORBIDDEN, desc = "a lost, duplicated or reordered message, or a miscounted mailbox")
@State
public class MailboxDeliveryTest {

    private final Mailbox mailbox = new Mailbox(8);
    private final StringBuilder polled = new StringBuilder();

    @Actor
    public void producer() {
        mailbox.offer(new Envelope("a1", null));
        mailbox.offerSystem("s1");
        mailbox.offer(new Envelope("a2", null));
    }

    @Actor
    public void consumer() {
        for (int i = 0; i < 3; i++) {
            turn();
        }
    }

    @Arbiter
    public void drain(L_Result r) {
        for (int i = 0; i < 6 && (mailbox.hasSystemMessages() || !mailbox.isEmpty()); i++) {
            turn();
        }
        r.r1 = MessageTrace.verdict(polled.toString(), mailbox.size(), "a1", "s1", "a2");
    }

    private void turn() {
        if (mailbox.hasSystemMessages()) {
            Object system = mailbox.pollSystem();
            polled.append(system == null ? "announced-but-none" : system).append(' ');
        }
        Envelope envelope = mailbox.poll();
        if (envelope != null) {
            polled.append(envelope.message()).append(' ');
            mailbox.releaseLast();
        }
    }
}
