package io.troupe.sample.wordcount;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.troupe.api.ChildFailed;
import io.troupe.api.ChildStopped;
import io.troupe.api.Directive;
import io.troupe.api.ErrorCode;
import io.troupe.api.Failure;
import io.troupe.api.Message;
import io.troupe.testkit.ActorHarness;
import io.troupe.testkit.TestActorContext;
import io.troupe.testkit.TestActorRef;

/**
 * Drives one {@link WordCountActor} message by message through an {@link ActorHarness}, playing the
 * children's part by hand.
 *
 * <p><b>Threading:</b> JUnit's thread only.
 */
class WordCountActorTest {

    private TestActorContext ctx;
    private ActorHarness wordcount;

    @BeforeEach
    void start() throws Exception {
        ctx = new TestActorContext("wordcount");
        ctx.registerFactory(ChunkCounterFactory.NAME, new ChunkCounterFactory());
        wordcount = ActorHarness.start(WordCountActor::new, ctx);
    }

    @Test
    void aSmallTextIsCountedWithoutChildren() throws Exception {
        TestActorRef requester = requester("small");
        wordcount.deliverFrom(requester, Message.of("wordcount", "a b c"));

        assertReply("3", requester);
        assertEquals(List.of(), ctx.spawned());
    }

    @Test
    void emptyTextCountsZero() throws Exception {
        TestActorRef requester = requester("empty");
        wordcount.deliverFrom(requester, new Message("wordcount", new byte[0]));

        assertReply("0", requester);
    }

    @Test
    void aTextOfExactlyOneChunkIsCountedWithoutChildren() throws Exception {
        TestActorRef requester = requester("one-chunk");
        wordcount.deliverFrom(requester, Message.of("wordcount", "x".repeat(WordCountActor.CHUNK_BYTES - 2) + " y"));

        assertReply("2", requester);
        assertEquals(List.of(), ctx.spawned());
    }

    @Test
    void aLargeTextIsCountedByOneChildPerChunkAndAnsweredAfterTheLastReceipt() throws Exception {
        TestActorRef requester = requester("large");
        wordcount.deliverFrom(requester, Message.of("wordcount", words(40_000)));

        List<TestActorRef> children = List.copyOf(ctx.spawned());
        assertTrue(children.size() > 1, "children: " + children.size());
        for (TestActorRef child : children) {
            assertInstanceOf(CountChunk.class, child.onlyMessage());
            assertEquals(ctx.self(), child.received().get(0).sender());
        }
        for (TestActorRef child : children.subList(0, children.size() - 1)) {
            runChild(child);
        }
        assertEquals(List.of(), requester.received(), "no reply before the last receipt");

        runChild(children.get(children.size() - 1));
        assertReply("40000", requester);
    }

    @Test
    void requestsInFlightAtTheSameTimeAreAnsweredSeparately() throws Exception {
        TestActorRef first = requester("first");
        TestActorRef second = requester("second");
        wordcount.deliverFrom(first, Message.of("wordcount", words(30_000)));
        int firstChildren = ctx.spawned().size();
        wordcount.deliverFrom(second, Message.of("wordcount", words(50_000)));
        List<TestActorRef> children = List.copyOf(ctx.spawned());

        // receipts of both requests interleave, newest request first
        for (int i = children.size() - 1; i >= 0; i--) {
            runChild(children.get(i));
        }
        assertReply("30000", first);
        assertReply("50000", second);
        assertTrue(firstChildren > 1 && children.size() > firstChildren + 1);
    }

    @Test
    void aChildThatFailsFailsItsRequestOnlyAndStopsItsSiblings() throws Exception {
        TestActorRef doomed = requester("doomed");
        TestActorRef healthy = requester("healthy");
        wordcount.deliverFrom(doomed, Message.of("wordcount", words(30_000)));
        List<TestActorRef> doomedChildren = List.copyOf(ctx.spawned());
        wordcount.deliverFrom(healthy, Message.of("wordcount", words(30_000)));
        List<TestActorRef> healthyChildren = ctx.spawned().subList(doomedChildren.size(), ctx.spawned().size());

        runChild(doomedChildren.get(0));
        TestActorRef failing = doomedChildren.get(1);
        wordcount.deliverFrom(null, new ChildStopped(failing, "failed", new IllegalStateException("boom")));

        Failure failure = assertInstanceOf(Failure.class, doomed.onlyMessage());
        assertEquals(ErrorCode.HANDLER_FAILED, failure.code());
        assertTrue(failure.detail().contains(failing.name()), failure.detail());
        assertEquals(doomedChildren.subList(1, doomedChildren.size()), ctx.stoppedChildren());

        for (TestActorRef child : List.copyOf(healthyChildren)) {
            runChild(child);
        }
        assertReply("30000", healthy);
        assertEquals(1, doomed.received().size(), "a failed request is answered once");
    }

    @Test
    void aChildFailureReportedBySupervisionFailsTheRequest() throws Exception {
        TestActorRef requester = requester("supervised");
        wordcount.deliverFrom(requester, Message.of("wordcount", words(30_000)));
        TestActorRef failing = ctx.spawned().get(0);

        wordcount.deliverFrom(null, new ChildFailed(failing, new OutOfMemoryError("test"), Directive.STOP));
        wordcount.deliverFrom(null, new ChildStopped(failing, "failed", new OutOfMemoryError("test")));

        Failure failure = assertInstanceOf(Failure.class, requester.onlyMessage());
        assertEquals(ErrorCode.HANDLER_FAILED, failure.code());
    }

    @Test
    void failedChildrenAreStoppedNotRestarted() {
        assertEquals(Directive.STOP, wordcount.actor().supervisorStrategy().decide(new RuntimeException("any")));
    }

    @Test
    void aChildStoppingNormallyAfterItsReceiptChangesNothing() throws Exception {
        TestActorRef requester = requester("normal");
        wordcount.deliverFrom(requester, Message.of("wordcount", words(30_000)));
        for (TestActorRef child : List.copyOf(ctx.spawned())) {
            runChild(child);
            wordcount.deliverFrom(null, new ChildStopped(child, "stopped", null));
        }
        assertReply("30000", requester);
    }

    @Test
    void aNormalStopOvertakingItsReceiptDoesNotFailTheRequest() throws Exception {
        TestActorRef requester = requester("overtaken");
        wordcount.deliverFrom(requester, Message.of("wordcount", words(30_000)));
        List<TestActorRef> children = List.copyOf(ctx.spawned());
        for (TestActorRef child : children) {
            wordcount.deliverFrom(null, new ChildStopped(child, "stopped", null));
        }
        for (TestActorRef child : children) {
            runChild(child);
        }
        assertReply("30000", requester);
    }

    @Test
    void aMissingChunkFactoryFailsTheRequestAndStopsTheChildrenAlreadySpawned() throws Exception {
        TestActorRef requester = requester("no-factory");
        ctx.failSpawningAfter(1);
        wordcount.deliverFrom(requester, Message.of("wordcount", words(30_000)));

        Failure failure = assertInstanceOf(Failure.class, requester.onlyMessage());
        assertEquals(ErrorCode.NO_FACTORY, failure.code());
        assertEquals(List.copyOf(ctx.spawned()), ctx.stoppedChildren());
    }

    @Test
    void stoppingTheHandlerAnswersEveryPendingRequest() throws Exception {
        TestActorRef first = requester("first");
        TestActorRef second = requester("second");
        wordcount.deliverFrom(first, Message.of("wordcount", words(30_000)));
        wordcount.deliverFrom(second, Message.of("wordcount", words(30_000)));

        wordcount.stop();

        assertEquals(ErrorCode.ACTOR_STOPPED, assertInstanceOf(Failure.class, first.onlyMessage()).code());
        assertEquals(ErrorCode.ACTOR_STOPPED, assertInstanceOf(Failure.class, second.onlyMessage()).code());
    }

    @Test
    void somethingOtherThanAMessageIsABadRequest() throws Exception {
        TestActorRef requester = requester("confused");
        wordcount.deliverFrom(requester, 42);

        assertEquals(ErrorCode.BAD_REQUEST, assertInstanceOf(Failure.class, requester.onlyMessage()).code());
    }

    @Test
    void aChunkCounterSendsItsReceiptToItsParentAndStops() throws Exception {
        TestActorContext childCtx = new TestActorContext("chunk");
        childCtx.deliver(new ChunkCounter(), new CountChunk(7, 3, " one two\tthree "), null);

        assertEquals(new ChunkCounted(7, 3, 3), childCtx.parent().onlyMessage());
        assertEquals(childCtx.self(), childCtx.parent().received().get(0).sender());
        assertTrue(childCtx.selfStopped());
    }

    /** Runs a real {@link ChunkCounter} on the child's only message and delivers its receipt. */
    private void runChild(TestActorRef child) throws Exception {
        TestActorContext childCtx = new TestActorContext(child.name());
        childCtx.deliver(new ChunkCounter(), child.onlyMessage(), null);
        assertTrue(childCtx.selfStopped());
        wordcount.deliverFrom(child, childCtx.parent().onlyMessage());
    }

    private static TestActorRef requester(String name) {
        return new TestActorRef(name.hashCode() & 0xffff, name);
    }

    private static void assertReply(String expected, TestActorRef requester) {
        Object reply = requester.onlyMessage();
        assertInstanceOf(byte[].class, reply, () -> "reply was " + reply);
        assertArrayEquals(expected.getBytes(StandardCharsets.UTF_8), (byte[]) reply,
                () -> "reply was " + new String((byte[]) reply, StandardCharsets.UTF_8));
    }

    /** {@code count} words of 4 to 6 characters, about 5 bytes each with their separators. */
    private static String words(int count) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < count; i++) {
            text.append("w").append(i % 1000).append(i % 7 == 0 ? '\n' : ' ');
        }
        return text.toString();
    }
}
