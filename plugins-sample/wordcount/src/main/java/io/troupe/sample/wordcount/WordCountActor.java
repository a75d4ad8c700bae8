package io.troupe.sample.wordcount;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.troupe.api.Actor;
import io.troupe.api.ActorContext;
import io.troupe.api.ActorOptions;
import io.troupe.api.ActorRef;
import io.troupe.api.ChildFailed;
import io.troupe.api.ChildStopped;
import io.troupe.api.Directive;
import io.troupe.api.ErrorCode;
import io.troupe.api.Failure;
import io.troupe.api.Message;
import io.troupe.api.SupervisorStrategy;
import io.troupe.api.TroupeException;

/**
 * Counts the words of a UTF-8 {@link Message} and replies with the count as a decimal string.
 *
 * <p>A text of at most {@value #CHUNK_BYTES} bytes is counted on the spot. A larger one is split into
 * chunks between words ({@link ChunkSplitter}); each chunk goes to a child spawned from the factory
 * {@value ChunkCounterFactory#NAME}, and the reply goes to the original requester once every child
 * has sent its receipt:
 *
 * <pre>
 *   requester --Message--&gt; WordCountActor --CountChunk(r, i, text)--&gt; ChunkCounter i  (one per chunk)
 *       ^                       |   ^                                       |
 *       +---- "12345" ----------+   +------- ChunkCounted(r, i, words) -----+  then it stops
 * </pre>
 *
 * <p>Several requests may be in flight at once: each gets a request id {@code r}, carried by its chunks
 * and receipts, that keys its own state (requester, children still counting, words so far). When a
 * child fails or stops before its receipt, that request, and only that one, is answered with
 * {@link ErrorCode#HANDLER_FAILED} and its other children are stopped. Children are not restarted: a
 * restarted counter would have lost its chunk.
 *
 * <p><b>Threading:</b> an actor: runs on one worker at a time, so its maps need no synchronisation.
 */
final class WordCountActor implements Actor {

    /** The largest text counted without children, and the largest chunk (except single long words). */
    static final int CHUNK_BYTES = 64 * 1024;

    private static final ChunkSplitter SPLITTER = new ChunkSplitter(CHUNK_BYTES);
    private static final SupervisorStrategy STOP_FAILED_CHILDREN = SupervisorStrategy.always(Directive.STOP);

    private final Map<Long, PendingCount> pending = new HashMap<>();
    private final Map<Long, Long> requestByChild = new HashMap<>();
    private long nextRequestId = 1;

    @Override
    public void receive(ActorContext ctx, Object message) {
        if (message instanceof Message request) {
            onRequest(ctx, request);
        } else if (message instanceof ChunkCounted receipt) {
            onReceipt(ctx, receipt);
        } else if (message instanceof ChildFailed failed) {
            onChildLost(ctx, failed.child(), "failed: " + failed.cause());
        } else if (message instanceof ChildStopped stopped && stopped.failed()) {
            onChildLost(ctx, stopped.child(), "stopped before its receipt: " + stopped.reason());
        } else if (!(message instanceof ChildStopped)) {
            ctx.reply(Failure.badRequest("wordcount expects a Message, got " + message.getClass().getName()));
        }
        // A child that stops normally has sent its receipt first. The receipt may still be queued
        // behind this notification, since the runtime delivers its notifications ahead of the
        // mailbox, so a normal stop is no reason to give up on the request.
    }

    @Override
    public SupervisorStrategy supervisorStrategy() {
        return STOP_FAILED_CHILDREN;
    }

    @Override
    public void preRestart(ActorContext ctx, Throwable cause, Object message) {
        failAll(ctx, ErrorCode.HANDLER_FAILED, "the wordcount handler failed while counting: " + cause);
    }

    @Override
    public void postStop(ActorContext ctx) {
        failAll(ctx, ErrorCode.ACTOR_STOPPED, "the wordcount handler stopped while counting");
    }

    private void onRequest(ActorContext ctx, Message request) {
        if (request.content().length <= CHUNK_BYTES) {
            ctx.reply(answer(Words.count(request.text())));
            return;
        }
        List<String> chunks = SPLITTER.split(request.text());
        long requestId = nextRequestId++;
        PendingCount count = new PendingCount(ctx.sender(), chunks.size());
        pending.put(requestId, count);
        for (int index = 0; index < chunks.size(); index++) {
            ActorRef child;
            try {
                child = ctx.spawn(ChunkCounterFactory.NAME,
                        ActorOptions.defaults().withName("chunk-" + requestId + "-" + index));
            } catch (TroupeException e) {
                fail(ctx, requestId, e.code(), e.detail());
                return;
            }
            count.children.add(child);
            requestByChild.put(child.id(), requestId);
            child.tell(new CountChunk(requestId, index, chunks.get(index)), ctx.self());
        }
    }

    private void onReceipt(ActorContext ctx, ChunkCounted receipt) {
        PendingCount count = pending.get(receipt.requestId());
        if (count == null || receipt.index() < 0 || receipt.index() >= count.children.size()) {
            return; // the request already failed; a late receipt changes nothing
        }
        ActorRef child = count.children.set(receipt.index(), null);
        if (child == null) {
            return; // a duplicate
        }
        requestByChild.remove(child.id());
        count.words += receipt.words();
        if (--count.remaining == 0) {
            pending.remove(receipt.requestId());
            count.requester.tell(answer(count.words), ctx.self());
        }
    }

    private void onChildLost(ActorContext ctx, ActorRef child, String why) {
        Long requestId = requestByChild.get(child.id());
        if (requestId != null) {
            fail(ctx, requestId, ErrorCode.HANDLER_FAILED, "chunk counter " + child.name() + " " + why);
        }
    }

    /** Answers one request with a failure and stops its children that are still counting. */
    private void fail(ActorContext ctx, long requestId, String code, String detail) {
        PendingCount count = pending.remove(requestId);
        if (count == null) {
            return;
        }
        for (ActorRef child : count.children) {
            if (child != null) {
                requestByChild.remove(child.id());
                ctx.stop(child);
            }
        }
        count.requester.tell(new Failure(code, detail), ctx.self());
    }

    private void failAll(ActorContext ctx, String code, String detail) {
        for (long requestId : List.copyOf(pending.keySet())) {
            fail(ctx, requestId, code, detail);
        }
    }

    private static byte[] answer(long words) {
        return Long.toString(words).getBytes(StandardCharsets.UTF_8);
    }

    /** One request waiting for receipts. Confined to the actor, like the actor's own fields. */
    private static final class PendingCount {
        final ActorRef requester;
        /** Child per chunk index; {@code null} once its receipt arrived. */
        final List<ActorRef> children;
        int remaining;
        long words;

        PendingCount(ActorRef requester, int chunks) {
            this.requester = requester;
            this.children = new ArrayList<>(chunks);
            this.remaining = chunks;
        }
    }
}
