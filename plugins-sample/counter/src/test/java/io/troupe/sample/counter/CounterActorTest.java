package io.troupe.sample.counter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.troupe.api.ErrorCode;
import io.troupe.api.Failure;
import io.troupe.api.Message;
import io.troupe.testkit.ActorHarness;

/**
 * Drives one {@link CounterActor} request by request through an {@link ActorHarness}. How the runtime gives
 * each tenant a counter of its own is {@link CounterTenantsTest}'s, on the embedded runtime.
 *
 * <p><b>Threading:</b> JUnit's thread only.
 */
class CounterActorTest {

    private ActorHarness counter;

    @BeforeEach
    void startCounter() throws Exception {
        counter = ActorHarness.start(() -> new CounterActor("1.0.0"));
    }

    @Test
    void theTotalStartsAtZero() throws Exception {
        assertReply("0", request(CounterActor.GET, ""));
    }

    @Test
    void addRepliesWithTheNewTotalAndGetRepliesWithTheTotal() throws Exception {
        assertReply("5", request(CounterActor.ADD, "5"));
        assertReply("2", request(CounterActor.ADD, " -3\n"));
        assertReply("2", request(CounterActor.GET, ""));
        assertReply("102", request(CounterActor.ADD, "+100"));
        assertReply("102", request(CounterActor.GET, "whatever"));
    }

    @Test
    void versionRepliesWithTheVersionTheActorWasCreatedWith() throws Exception {
        assertReply("1.0.0", request(CounterActor.VERSION, ""));
        assertReply("2.0.0", ActorHarness.start(() -> new CounterActor("2.0.0"))
                .deliver(Message.of(CounterActor.VERSION, "")).onlyMessage());
    }

    @Test
    void aBadAmountIsABadRequestWithAHelpfulDetailAndKeepsTheTotal() throws Exception {
        request(CounterActor.ADD, "40");

        Failure failure = assertInstanceOf(Failure.class, request(CounterActor.ADD, "forty-two"));
        assertEquals(ErrorCode.BAD_REQUEST, failure.code());
        assertTrue(failure.detail().contains("decimal integer") && failure.detail().contains("forty-two"),
                failure.detail());

        assertEquals(ErrorCode.BAD_REQUEST, assertInstanceOf(Failure.class, request(CounterActor.ADD, "")).code());
        assertReply("40", request(CounterActor.GET, ""));
    }

    @Test
    void anOverflowingAmountOrSumIsABadRequestAndKeepsTheTotal() throws Exception {
        Failure tooBig = assertInstanceOf(Failure.class, request(CounterActor.ADD, "9223372036854775808"));
        assertEquals(ErrorCode.BAD_REQUEST, tooBig.code());

        assertReply(Long.toString(Long.MAX_VALUE), request(CounterActor.ADD, Long.toString(Long.MAX_VALUE)));
        Failure overflow = assertInstanceOf(Failure.class, request(CounterActor.ADD, "1"));
        assertEquals(ErrorCode.BAD_REQUEST, overflow.code());
        assertReply(Long.toString(Long.MAX_VALUE), request(CounterActor.GET, ""));
    }

    @Test
    void malformedUtf8IsNotAnInteger() throws Exception {
        Object reply = counter.deliver(new Message(CounterActor.ADD, new byte[] {'1', (byte) 0xC3})).onlyMessage();
        assertEquals(ErrorCode.BAD_REQUEST, assertInstanceOf(Failure.class, reply).code());
        assertReply("0", request(CounterActor.GET, ""));
    }

    @Test
    void anUnknownNameOrANonMessageIsABadRequest() throws Exception {
        Failure unknown = assertInstanceOf(Failure.class, request("counter.reset", ""));
        assertEquals(ErrorCode.BAD_REQUEST, unknown.code());
        assertTrue(unknown.detail().contains("counter.reset"), unknown.detail());

        Object reply = counter.deliver("5").onlyMessage();
        assertEquals(ErrorCode.BAD_REQUEST, assertInstanceOf(Failure.class, reply).code());
        assertReply("0", request(CounterActor.GET, ""));
    }

    private Object request(String name, String text) throws Exception {
        return counter.deliver(Message.of(name, text)).onlyMessage();
    }

    private static void assertReply(String expected, Object reply) {
        assertArrayEquals(expected.getBytes(StandardCharsets.UTF_8), assertInstanceOf(byte[].class, reply),
                () -> "reply " + (reply instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : reply));
    }
}
