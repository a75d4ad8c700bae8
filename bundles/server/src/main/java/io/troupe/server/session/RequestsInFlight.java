package io.troupe.server.session;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

import io.troupe.api.ActorRef;
import io.troupe.api.Message;
import io.troupe.api.net.Connection;
import io.troupe.protocol.ErrorCode;
import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameType;

/**
 * The REQUESTs of one session that were handed to handlers and are not answered yet, and the one
 * answer each gets: the REPLY or ERROR its ask completes with ({@link Replies}), or, when the server
 * gives up waiting, ERROR {@code server.shutdown}. Whichever comes first {@linkplain
 * PendingRequest#claim() claims} the request; the other is dropped.
 *
 * <p>While the session drains (BYE, end of input, shutdown) the answer that empties the set hands
 * {@code onLastAnswer} to the connection's loop.
 *
 * <p><b>Threading:</b> the part of a session that other threads touch. Asks are sent from the loop;
 * they complete on runtime threads (a worker, or the timer for a timeout), which queue the answer in
 * an {@link AnswerBatch} that the loop encodes and writes. The set is concurrent; {@code draining}
 * is set on the loop before it looks at the set, and read by completions after they remove their
 * request, so that one of the two sees the last answer.
 */
final class RequestsInFlight {

    private final Connection connection;
    private final LongSupplier nanoClock;
    private final Runnable onLastAnswer;
    private final Set<PendingRequest> pending = ConcurrentHashMap.newKeySet();
    private final AnswerBatch answers;
    private volatile boolean draining;
    private volatile long lastAnswerNanos;
    private volatile Runnable errorSent = () -> { };

    /**
     * @param onLastAnswer runs on the loop when, while draining, the last request has been answered
     */
    RequestsInFlight(Connection connection, LongSupplier nanoClock, Runnable onLastAnswer) {
        this.connection = connection;
        this.nanoClock = nanoClock;
        this.onLastAnswer = onLastAnswer;
        this.answers = new AnswerBatch(connection);
        this.lastAnswerNanos = nanoClock.getAsLong();
    }

    /** Asks {@code target} and answers the REQUEST {@code corrId}/{@code message.name()} when it completes. */
    void ask(ActorRef target, Message message, long corrId, Duration timeout) {
        PendingRequest request = new PendingRequest(corrId, message.name());
        pending.add(request);
        target.ask(message, timeout).whenComplete((reply, failure) -> answer(request, reply, failure, timeout));
    }

    /** From now on, the last answer calls {@code onLastAnswer}. On the loop. */
    void draining() {
        draining = true;
    }

    boolean isEmpty() {
        return pending.isEmpty();
    }

    int size() {
        return pending.size();
    }

    /** When the last answer was written, on the clock given; the time of creation before any. */
    long lastAnswerNanos() {
        return lastAnswerNanos;
    }

    /** Answers every request still waiting with ERROR {@code server.shutdown}; later replies are dropped. */
    void giveUp() {
        for (PendingRequest request : List.copyOf(pending)) {
            if (request.claim()) {
                write(Replies.error(request.corrId(), ErrorCode.SERVER_SHUTDOWN,
                        "the server is stopping; '" + request.name() + "' was not answered in time"));
            }
            pending.remove(request);
        }
    }

    /**
     * Writes the answers queued so far; the session calls it on the loop before writing a frame of
     * its own, so that those answers go first.
     */
    void flushAnswers() {
        answers.flush();
    }

    /** The connection is gone: nobody is left to answer. */
    void abandon() {
        draining = false;
        answers.clear();
        for (PendingRequest request : pending) {
            request.claim();
        }
        pending.clear();
    }

    private void answer(PendingRequest request, Object reply, Throwable failure, Duration timeout) {
        if (!request.claim()) {
            return;
        }
        try {
            Frame frame;
            try {
                frame = failure == null
                        ? Replies.reply(request.corrId(), request.name(), reply)
                        : Replies.failure(request.corrId(), request.name(), failure, timeout);
            } catch (RuntimeException e) {
                frame = Replies.error(request.corrId(), ErrorCode.HANDLER_FAILED,
                        "the reply of '" + request.name() + "' cannot be sent: " + e.getMessage());
            }
            write(frame);
        } finally {
            lastAnswerNanos = nanoClock.getAsLong();
            pending.remove(request);
            if (draining && pending.isEmpty()) {
                // After the answer's flush task, which it queued (or found queued) on the same loop.
                connection.execute(onLastAnswer);
            }
        }
    }

    /** Counts the ERROR frames written from now on (the session's tenant is known). Any thread. */
    void countErrorsWith(Runnable counter) {
        errorSent = counter;
    }

    private void write(Frame frame) {
        if (frame.type() == FrameType.ERROR) {
            errorSent.run();
        }
        answers.add(frame);
    }
}
