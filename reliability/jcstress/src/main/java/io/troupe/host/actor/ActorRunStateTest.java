package io.troupe.host.actor;

import java.util.concurrent.atomic.AtomicInteger;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;

/**
 * The actor run state ({@link ActorCell}'s IDLE/SCHEDULED compare-and-set, which claims a turn): an actor has
 * message "a" queued and its turn scheduled, with a throughput of one message per turn. One thread tells it
 * "b" and then works (runs one queued turn); the other works at once. So a tell races the end of a turn (the
 * turn publishes IDLE, then looks for more work) and two workers race for the turns. After the race the arbiter
 * runs the turns still queued.
 *
 * <p>Result: messages received (2: none lost to a lost wake-up, none twice), the most turns seen inside
 * {@code receive} at once (1: never a duplicated run), times the actor was queued while already queued (0),
 * turns still queued after the arbiter (0).
 *
 * <p><b>Threading:</b> one actor system per trial on a hand-run dispatcher ({@link TurnQueue}); the two threads
 * are the jcstress actors.
 */
@JCStressTest
@Outcome(id = "2, 1, 0, 0", expect = Expect.ACCEPTABLE, desc = "both messages received once, one turn at a time")
@Outcome(id = "[01], .*", expect = Expect.FORBIDDEN, desc = "a message lost (a lost wake-up)")
@Outcome(id = "2, 2, .*", expect = Expect.FORBIDDEN, desc = "two turns of one actor ran at once")
@Outcome(id = "2, 1, [1-9].*", expect = Expect.FORBIDDEN, desc = "the actor was scheduled twice")
@Outcome(expect = Expect.FORBIDDEN, desc = "a message received twice, or turns left scheduled")
@State
public class ActorRunStateTest {

    private final TurnQueue turns = new TurnQueue();
    private final AtomicInteger received = new AtomicInteger();
    private final AtomicInteger inside = new AtomicInteger();
    private final AtomicInteger mostInside = new AtomicInteger();
    private final ActorRef actor;

    public ActorRunStateTest() {
        ActorSystem system = new ActorSystem(turns, new NoTimers(), FactoryResolver.none(), 1);
        actor = system.spawn(() -> (context, message) -> {
            int now = inside.incrementAndGet();
            mostInside.accumulateAndGet(now, Math::max);
            received.incrementAndGet();
            inside.decrementAndGet();
        }, ActorOptions.defaults());
        turns.runAll(100);
        actor.tell("a");
    }

    @Actor
    public void senderAndWorker() {
        actor.tell("b");
        turns.runOne();
    }

    @Actor
    public void worker() {
        turns.runOne();
    }

    @Arbiter
    public void settle(IIII_Result r) {
        turns.runAll(100);
        r.r1 = received.get();
        r.r2 = mostInside.get();
        r.r3 = turns.doubleSchedules();
        r.r4 = turns.runAll(100);
    }
}
