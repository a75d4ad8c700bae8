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

/**
 * Drives one {@link WordCountActor} message by message through a {@link StubActorContext}, playing
 * the children's part by hand.
 *
 * <p><b>Threading:</b> JUnit's thread only.
 */
class WordCountActorTest {

    private final WordCountActor actor = new WordCountActor();
    private StubActorContext ctx;

    @BeforeEach
    void createContext() {
        ctx = new StubActorContext("wordcount", ChunkCounterFactory.NAME);
    }

    @Test
    void aSmallTextIsCountedWithoutChildren() throws Exception {
        StubActorRef requester = requester("small");
        ctx.deliver(actor, Message.of("wordcount", "a b c"), requester);

        assertReply("3", requester);
        assertEquals(List.of(), ctx.spawned());
    }

    @Test
    void emptyTextCountsZero() throws Exception {
        StubActorRef requester = requester("empty");
        ctx.deliver(actor, new Message("wordcount", new byte[0]), requester);

        assertReply("0", requester);
    }

    @Test
    void aTextOfExactlyOneChunkIsCountedWithoutChildren() throws Exception {
        StubActorRef requester = requester("one-chunk");
        ctx.deliver(actor, Message.of("wordcount", "x".repeat(WordCountActor.CHUNK_BYTES - 2) + " y"), requester);

        assertReply("2", requester);
        assertEquals(List.of(), ctx.spawned());
    }

    @Test
    void aLargeTextIsCountedByOneChildPerChunkAndAnsweredAfterTheLastReceipt() throws Exception {
        StubActorRef requester = requester("large");
        ctx.deliver(actor, Message.of("wordcount", words(40_000)), requester);

        List<StubActorRef> children = List.copyOf(ctx.spawned());
        assertTrue(children.size() > 1, "children: " + children.size());
        for (StubActorRef child : children) {
            assertInstanceOf(CountChunk.class, child.onlyMessage());
            assertEquals(ctx.self(), child.received().get(0).sender());
        }
        for (StubActorRef child : children.subList(0, children.size() - 1)) {
            runChild(child);
        }
        assertEquals(List.of(), requester.received(), "no reply before the last receipt");

        runChild(children.get(children.size() - 1));
        assertReply("40000", requester);
    }

    @Test
    void requestsInFlightAtTheSameTimeAreAnsweredSeparately() throws Exception {
        StubActorRef first = requester("first");
        StubActorRef second = requester("second");
        ctx.deliver(actor, Message.of("wordcount", words(30_000)), first);
        int firstChildren = ctx.spawned().size();
        ctx.deliver(actor, Message.of("wordcount", words(50_000)), second);
        List<StubActorRef> children = List.copyOf(ctx.spawned());

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
        StubActorRef doomed = requester("doomed");
        StubActorRef healthy = requester("healthy");
        ctx.deliver(actor, Message.of("wordcount", words(30_000)), doomed);
        List<StubActorRef> doomedChildren = List.copyOf(ctx.spawned());
        ctx.deliver(actor, Message.of("wordcount", words(30_000)), healthy);
        List<StubActorRef> healthyChildren = ctx.spawned().subList(doomedChildren.size(), ctx.spawned().size());

        runChild(doomedChildren.get(0));
        StubActorRef failing = doomedChildren.get(1);
        ctx.deliver(actor, new ChildStopped(failing, "failed", new IllegalStateException("boom")), null);

        Failure failure = assertInstanceOf(Failure.class, doomed.onlyMessage());
        assertEquals(ErrorCode.HANDLER_FAILED, failure.code());
        assertTrue(failure.detail().contains(failing.name()), failure.detail());
        assertEquals(doomedChildren.subList(1, doomedChildren.size()), ctx.stoppedChildren());

        for (StubActorRef child : List.copyOf(healthyChildren)) {
            runChild(child);
        }
        assertReply("30000", healthy);
        assertEquals(1, doomed.received().size(), "a failed request is answered once");
    }

    @Test
    void aChildFailureReportedBySupervisionFailsTheRequest() throws Exception {
        StubActorRef requester = requester("supervised");
        ctx.deliver(actor, Message.of("wordcount", words(30_000)), requester);
        StubActorRef failing = ctx.spawned().get(0);

        ctx.deliver(actor, new ChildFailed(failing, new OutOfMemoryError("test"), Directive.STOP), null);
        ctx.deliver(actor, new ChildStopped(failing, "failed", new OutOfMemoryError("test")), null);

        Failure failure = assertInstanceOf(Failure.class, requester.onlyMessage());
        assertEquals(ErrorCode.HANDLER_FAILED, failure.code());
    }

    @Test
    void failedChildrenAreStoppedNotRestarted() {
        assertEquals(Directive.STOP, actor.supervisorStrategy().decide(new RuntimeException("any")));
    }

    @Test
    void aChildStoppingNormallyAfterItsReceiptChangesNothing() throws Exception {
        StubActorRef requester = requester("normal");
        ctx.deliver(actor, Message.of("wordcount", words(30_000)), requester);
        for (StubActorRef child : List.copyOf(ctx.spawned())) {
            runChild(child);
            ctx.deliver(actor, new ChildStopped(child, "stopped", null), null);
        }
        assertReply("30000", requester);
    }

    @Test
    void aNormalStopOvertakingItsReceiptDoesNotFailTheRequest() throws Exception {
        StubActorRef requester = requester("overtaken");
        ctx.deliver(actor, Message.of("wordcount", words(30_000)), requester);
        List<StubActorRef> children = List.copyOf(ctx.spawned());
        for (StubActorRef child : children) {
            ctx.deliver(actor, new ChildStopped(child, "stopped", null), null);
        }
        for (StubActorRef child : children) {
            runChild(child);
        }
        assertReply("30000", requester);
    }

    @Test
    void aMissingChunkFactoryFailsTheRequestAndStopsTheChildrenAlreadySpawned() throws Exception {
        StubActorRef requester = requester("no-factory");
        ctx.failSpawningAfter(1);
        ctx.deliver(actor, Message.of("wordcount", words(30_000)), requester);

        Failure failure = assertInstanceOf(Failure.class, requester.onlyMessage());
        assertEquals(ErrorCode.NO_FACTORY, failure.code());
        assertEquals(List.copyOf(ctx.spawned()), ctx.stoppedChildren());
    }

    @Test
    void stoppingTheHandlerAnswersEveryPendingRequest() throws Exception {
        StubActorRef first = requester("first");
        StubActorRef second = requester("second");
        ctx.deliver(actor, Message.of("wordcount", words(30_000)), first);
        ctx.deliver(actor, Message.of("wordcount", words(30_000)), second);

        actor.postStop(ctx);

        assertEquals(ErrorCode.ACTOR_STOPPED, assertInstanceOf(Failure.class, first.onlyMessage()).code());
        assertEquals(ErrorCode.ACTOR_STOPPED, assertInstanceOf(Failure.class, second.onlyMessage()).code());
    }

    @Test
    void somethingOtherThanAMessageIsABadRequest() throws Exception {
        StubActorRef requester = requester("confused");
        ctx.deliver(actor, 42, requester);

        assertEquals(ErrorCode.BAD_REQUEST, assertInstanceOf(Failure.class, requester.onlyMessage()).code());
    }

    @Test
    void aChunkCounterSendsItsReceiptToItsParentAndStops() throws Exception {
        StubActorContext childCtx = new StubActorContext("chunk");
        new ChunkCounter().receive(childCtx, new CountChunk(7, 3, " one two\tthree "));

        assertEquals(new ChunkCounted(7, 3, 3), childCtx.parentRef().onlyMessage());
        assertEquals(childCtx.self(), childCtx.parentRef().received().get(0).sender());
        assertTrue(childCtx.stoppedSelf());
    }

    /** Runs a real {@link ChunkCounter} on the child's only message and delivers its receipt. */
    private void runChild(StubActorRef child) throws Exception {
        StubActorContext childCtx = new StubActorContext(child.name());
        new ChunkCounter().receive(childCtx, child.onlyMessage());
        assertTrue(childCtx.stoppedSelf());
        ctx.deliver(actor, childCtx.parentRef().onlyMessage(), child);
    }

    private static StubActorRef requester(String name) {
        return new StubActorRef(name.hashCode() & 0xffff, 0, name);
    }

    private static void assertReply(String expected, StubActorRef requester) {
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
