package io.troupe.host.actor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.troupe.api.ActorInfo;
import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.api.ErrorCode;
import io.troupe.api.MailboxFullException;
import io.troupe.api.MailboxOverflow;

/**
 * Each overflow policy's accounting, on a deterministic runtime: a burst of {@code SENT} tells to an
 * actor with room for {@code CAPACITY}, before it runs; then sent = processed + rejected + dropped +
 * queued, and which messages survived is what the policy says.
 */
class MailboxOverflowTest {

    private static final int CAPACITY = 10;
    private static final int SENT = 25;

    private final TestRuntime runtime = new TestRuntime();
    private final List<Object> received = new ArrayList<>();

    private ActorRef spawn(ActorOptions options) {
        ActorRef actor = runtime.system.spawn(() -> (ctx, message) -> received.add(message), options);
        runtime.settle(); // started: what follows is the burst alone
        return actor;
    }

    private ActorInfo info(ActorRef actor) {
        return runtime.system.snapshot().stream().filter(info -> info.id() == actor.id()).findFirst().orElseThrow();
    }

    @Test
    void theDefaultMailboxQueuesEveryTellPastItsCapacity() {
        ActorRef actor = spawn(ActorOptions.defaults().withMailboxCapacity(CAPACITY));
        for (int i = 0; i < SENT; i++) {
            actor.tell(i);
        }
        ActorInfo queued = info(actor);
        assertEquals(SENT, queued.mailboxDepth());
        assertEquals(MailboxOverflow.BACKPRESSURE, queued.overflow());
        assertTrue(!actor.offer("no room", null), "offer keeps to the capacity");
        runtime.settle();
        ActorInfo done = info(actor);
        assertEquals(SENT, done.processed());
        assertEquals(0, done.rejected() + done.dropped());
        assertEquals(SENT, received.size());
        assertTrue(runtime.deadLetters.isEmpty());
    }

    @Test
    void rejectThrowsToTheSenderAndQueuesNothing() {
        ActorRef actor = spawn(ActorOptions.defaults().withMailbox(CAPACITY, MailboxOverflow.REJECT));
        int thrown = 0;
        for (int i = 0; i < SENT; i++) {
            try {
                actor.tell(i);
            } catch (MailboxFullException full) {
                assertEquals(ErrorCode.MAILBOX_FULL, full.code());
                assertEquals(actor, full.receiver());
                thrown++;
            }
        }
        assertEquals(SENT - CAPACITY, thrown);
        ActorInfo before = info(actor);
        assertEquals(SENT, before.processed() + before.rejected() + before.dropped() + before.mailboxDepth());
        runtime.settle();
        ActorInfo after = info(actor);
        assertEquals(CAPACITY, after.processed());
        assertEquals(SENT - CAPACITY, after.rejected());
        assertEquals(0, after.dropped());
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9), received);
        assertTrue(runtime.deadLetters.isEmpty(), "a rejected tell is the sender's to handle, not a dead letter");
    }

    @Test
    void dropNewestMakesTheLateMessagesDeadLetters() {
        ActorRef actor = spawn(ActorOptions.defaults().withMailbox(CAPACITY, MailboxOverflow.DROP_NEWEST));
        for (int i = 0; i < SENT; i++) {
            actor.tell(i);
        }
        runtime.settle();
        ActorInfo after = info(actor);
        assertEquals(SENT, after.processed() + after.rejected() + after.dropped() + after.mailboxDepth());
        assertEquals(SENT - CAPACITY, after.dropped());
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9), received);
        assertEquals(SENT - CAPACITY, runtime.deadLetters.size());
        assertEquals(10, runtime.deadLetters.get(0).message());
        assertEquals("mailbox full", runtime.deadLetters.get(0).reason());
    }

    @Test
    void dropOldestKeepsTheNewestMessages() {
        ActorRef actor = spawn(ActorOptions.defaults().withMailbox(CAPACITY, MailboxOverflow.DROP_OLDEST));
        for (int i = 0; i < SENT; i++) {
            actor.tell(i);
        }
        ActorInfo before = info(actor);
        assertEquals(SENT, before.processed() + before.rejected() + before.dropped() + before.mailboxDepth());
        runtime.settle();
        ActorInfo after = info(actor);
        assertEquals(SENT - CAPACITY, after.dropped());
        assertEquals(CAPACITY, after.processed());
        assertEquals(List.of(15, 16, 17, 18, 19, 20, 21, 22, 23, 24), received);
        assertEquals(SENT - CAPACITY, runtime.deadLetters.size());
        assertEquals(0, runtime.deadLetters.get(0).message());
        assertEquals("mailbox full (oldest dropped)", runtime.deadLetters.get(0).reason());
    }

    @Test
    void anAskDroppedAsTheOldestFailsWithMailboxFull() {
        ActorRef actor = spawn(ActorOptions.defaults().withMailbox(1, MailboxOverflow.DROP_OLDEST));
        var first = actor.ask("first", java.time.Duration.ofSeconds(1)).toCompletableFuture();
        actor.tell("second");
        runtime.settle();
        assertEquals(ErrorCode.MAILBOX_FULL,
                MessagingTest.causeOf(first, io.troupe.api.TroupeException.class).code());
        assertEquals(List.of("second"), received);
    }

    @Test
    void optionsRefuseNonsense() {
        assertThrows(IllegalArgumentException.class,
                () -> ActorOptions.defaults().withMailbox(0, MailboxOverflow.REJECT));
        assertThrows(NullPointerException.class, () -> ActorOptions.defaults().withMailbox(5, null));
        assertThrows(IllegalArgumentException.class, () -> ActorOptions.defaults().withName(" "));
    }
}
