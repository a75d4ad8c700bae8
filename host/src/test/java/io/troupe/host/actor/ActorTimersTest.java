package io.troupe.host.actor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;

class ActorTimersTest {

    private final TestRuntime runtime = new TestRuntime();
    private final List<Object> received = new ArrayList<>();

    /** An actor that obeys timer commands and records every other message. */
    private ActorRef timerActor() {
        ActorRef actor = runtime.system.spawn(() -> (ctx, message) -> {
            if (message instanceof String command) {
                String[] parts = command.split(" ");
                switch (parts[0]) {
                    case "once" -> ctx.timers().scheduleOnce(parts[1], "tick:" + parts[1],
                            Duration.ofMillis(Long.parseLong(parts[2])));
                    case "rate" -> ctx.timers().scheduleAtFixedRate(parts[1], "tick:" + parts[1],
                            Duration.ofMillis(Long.parseLong(parts[2])), Duration.ofMillis(Long.parseLong(parts[3])));
                    case "cancel" -> received.add("cancelled:" + ctx.timers().cancel(parts[1]));
                    case "active" -> received.add("active:" + ctx.timers().isActive(parts[1]));
                    case "stop" -> ctx.stop();
                    default -> received.add(message);
                }
            } else {
                received.add(message);
            }
        }, ActorOptions.defaults());
        runtime.settle();
        return actor;
    }

    private void advance(long millis) {
        runtime.scheduler.advance(Duration.ofMillis(millis));
        runtime.settle();
    }

    private void command(ActorRef actor, String command) {
        actor.tell(command);
        runtime.settle();
    }

    @Test
    void aSingleTimerDeliversOnceAfterItsDelay() {
        ActorRef actor = timerActor();
        command(actor, "once t 100");
        advance(99);
        assertTrue(received.isEmpty());
        advance(1);
        assertEquals(List.of("tick:t"), received);
        advance(1000);
        assertEquals(List.of("tick:t"), received);
        command(actor, "active t");
        assertEquals("active:false", received.get(1));
    }

    @Test
    void aFixedRateTimerDeliversEveryPeriod() {
        ActorRef actor = timerActor();
        command(actor, "rate r 10 50");
        advance(10);
        advance(50);
        advance(50);
        assertEquals(List.of("tick:r", "tick:r", "tick:r"), received);
        command(actor, "cancel r");
        advance(500);
        assertEquals(List.of("tick:r", "tick:r", "tick:r", "cancelled:true"), received);
    }

    @Test
    void aCancelledTimerDeliversNothingEvenIfItAlreadyFired() {
        ActorRef actor = timerActor();
        command(actor, "once t 10");
        // the cancel is queued first; the timer then fires and queues its message behind it
        actor.tell("cancel t");
        runtime.scheduler.advance(Duration.ofMillis(10));
        runtime.settle();
        assertEquals(List.of("cancelled:true"), received);
    }

    @Test
    void reschedulingUnderTheSameKeyReplacesTheTimer() {
        ActorRef actor = timerActor();
        command(actor, "once t 100");
        command(actor, "once t 300");
        advance(200);
        assertTrue(received.isEmpty());
        advance(100);
        assertEquals(List.of("tick:t"), received);
    }

    @Test
    void timersDieWithTheirActor() {
        ActorRef actor = timerActor();
        command(actor, "rate r 10 10");
        advance(10);
        command(actor, "stop");
        assertTrue(actor.isStopped());
        advance(1000);
        assertEquals(List.of("tick:r"), received);
        assertTrue(runtime.deadLetters.isEmpty(), "timer messages of a dead actor are not dead letters");
    }

    @Test
    void negativeDelaysAreRejected() {
        var rejected = new ArrayList<Throwable>();
        ActorRef actor = runtime.system.spawn(() -> (ctx, message) -> {
            try {
                ctx.timers().scheduleOnce("k", "m", Duration.ofMillis(-1));
            } catch (IllegalArgumentException e) {
                rejected.add(e);
            }
        }, ActorOptions.defaults());
        actor.tell("go");
        runtime.settle();
        assertEquals(1, rejected.size());
        assertFalse(actor.isStopped());
        assertThrows(IllegalArgumentException.class, () -> { throw rejected.get(0); });
    }
}
