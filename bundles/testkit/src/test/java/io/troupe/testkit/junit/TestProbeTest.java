package io.troupe.testkit.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.api.Message;
import io.troupe.runtime.Troupe;

/**
 * {@link TestProbe} on a real embedded runtime, started and closed by hand here (the extension has its own
 * test): what each expectation returns, and what its failure says.
 *
 * <p><b>Threading:</b> JUnit's thread; the actors run on the runtime's workers.
 */
class TestProbeTest {

    /** Short, for the expectations that must fail: each waits all of it. */
    private static final Duration SHORT = Duration.ofMillis(200);

    private Troupe troupe;
    private TestProbe probe;

    @BeforeEach
    void start() {
        troupe = Troupe.builder().workers(2).threadNamePrefix("probe-test").build();
        probe = TestProbe.create(troupe, "probe");
    }

    @AfterEach
    void close() {
        troupe.close();
    }

    @Test
    void expectMessageReturnsWhatWasToldToTheProbesRefInOrder() {
        probe.ref().tell("one");
        probe.ref().tell(2);
        assertEquals("one", probe.expectMessage("one"));
        assertEquals(2, probe.expectMessage(2));
    }

    @Test
    void expectMessageComparesByteArraysByContentAndShowsThemAsText() {
        probe.ref().tell("hello".getBytes(StandardCharsets.UTF_8));
        probe.expectMessage("hello".getBytes(StandardCharsets.UTF_8));

        probe.ref().tell("hellO".getBytes(StandardCharsets.UTF_8));
        AssertionError wrong = assertThrows(AssertionError.class,
                () -> probe.expectMessage("hello".getBytes(StandardCharsets.UTF_8)));
        assertTrue(wrong.getMessage().startsWith("probe expected byte[5] \"hello\" (UTF-8), got byte[5] \"hellO\""
                + " (UTF-8) from "), wrong.getMessage());
    }

    @Test
    void anotherMessageFailsNamingWhatWasExpectedWhatArrivedAndItsSender() {
        ActorRef sender = troupe.spawn(() -> (ctx, message) -> { }, ActorOptions.defaults().withName("someone"));
        probe.ref().tell(41, sender);
        AssertionError wrong = assertThrows(AssertionError.class, () -> probe.expectMessage(42));
        assertTrue(wrong.getMessage().startsWith("probe expected 42 (java.lang.Integer), got 41 (java.lang.Integer)"
                + " from "), wrong.getMessage());
        assertTrue(wrong.getMessage().contains("someone"), wrong.getMessage());
    }

    @Test
    void noMessageWithinTheTimeoutFailsSayingSo() {
        probe.timeout(SHORT);
        AssertionError none = assertThrows(AssertionError.class, () -> probe.expectMessage("late"));
        assertEquals("probe expected \"late\" within 200 ms, got no message", none.getMessage());
        AssertionError nothing = assertThrows(AssertionError.class, () -> probe.receiveMessage());
        assertEquals("probe expected a message within 200 ms, got none", nothing.getMessage());
    }

    @Test
    void theDefaultTimeoutIsThreeSecondsAndEachProbeSetsItsOwn() {
        assertEquals(Duration.ofSeconds(3), probe.timeout());
        assertEquals(SHORT, TestProbe.create(troupe).timeout(SHORT).timeout());
        assertEquals(Duration.ofSeconds(3), probe.timeout());
        assertThrows(IllegalArgumentException.class, () -> probe.timeout(Duration.ZERO));
    }

    @Test
    void expectMessageClassReturnsTheMessageAsThatClassOrFailsNamingBoth() {
        probe.ref().tell(Message.of("greet", "ada"));
        Message message = probe.expectMessageClass(Message.class);
        assertEquals("ada", message.text());

        probe.ref().tell("text");
        AssertionError wrong = assertThrows(AssertionError.class, () -> probe.expectMessageClass(Long.class));
        assertTrue(wrong.getMessage().startsWith("probe expected a java.lang.Long, got \"text\" from "),
                wrong.getMessage());
    }

    @Test
    void expectNoMessagePassesInSilenceAndFailsOnAMessage() {
        probe.expectNoMessage(SHORT);
        probe.ref().tell("surprise");
        AssertionError heard = assertThrows(AssertionError.class, () -> probe.expectNoMessage(SHORT));
        assertTrue(heard.getMessage().startsWith("probe expected no message for 200 ms, got \"surprise\" from "),
                heard.getMessage());
    }

    @Test
    void fishForMessageSkipsToTheFirstMatchOrFailsListingWhatItSkipped() {
        for (int i = 1; i <= 5; i++) {
            probe.ref().tell(i);
        }
        assertEquals(3, probe.fishForMessage(message -> message.equals(3)));
        assertEquals(4, probe.receiveMessage());

        probe.timeout(SHORT);
        AssertionError none = assertThrows(AssertionError.class, () -> probe.fishForMessage("x"::equals));
        assertEquals("probe fished for a message within 200 ms and caught none; it dropped 1: [5 (java.lang.Integer)]",
                none.getMessage());
    }

    @Test
    void replyAnswersTheLastSenderAsTheProbe() throws Exception {
        CompletableFuture<Object> answer = probe.ref().ask("question?", Duration.ofSeconds(3)).toCompletableFuture();
        probe.expectMessage("question?");
        probe.reply("answer!");
        assertEquals("answer!", answer.get(3, TimeUnit.SECONDS));
    }

    @Test
    void lastSenderIsTheActorThatSentTheLastMessageTaken() {
        ActorRef forwarder = troupe.spawn(() -> (ctx, message) -> probe.ref().tell("from me", ctx.self()),
                ActorOptions.defaults().withName("forwarder"));
        assertThrows(IllegalStateException.class, probe::lastSender);
        forwarder.tell("go");
        probe.expectMessage("from me");
        assertSame(forwarder, probe.lastSender());
    }

    @Test
    void expectTerminatedWaitsForTheActorToStopOrFailsWhileItRuns() {
        ActorRef worker = troupe.spawn(() -> (ctx, message) -> ctx.stop(), ActorOptions.defaults().withName("worker"));
        AssertionError running = assertThrows(AssertionError.class, () -> probe.expectTerminated(worker, SHORT));
        assertTrue(running.getMessage().startsWith("probe expected ") && running.getMessage().endsWith(
                " to stop within 200 ms, but it is still running"), running.getMessage());

        worker.tell("stop now");
        probe.expectTerminated(worker);
        probe.expectTerminated(worker); // already stopped: at once
        probe.expectNoMessage(Duration.ofMillis(50)); // nothing for the probe's inbox
    }

    @Test
    void aHandlersReplyReachesTheProbeGivenAsSender() {
        try (Troupe.Registration greet = troupe.registerHandler("greet",
                () -> (ctx, message) -> ctx.reply("hello " + ((Message) message).text()))) {
            troupe.handler("acme", "greet").orElseThrow().tell(Message.of("greet", "ada"), probe.ref());
            probe.expectMessage("hello ada");
        }
    }
}
