package io.troupe.server.session;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.function.LongSupplier;

import io.troupe.api.ActorRef;
import io.troupe.api.Message;
import io.troupe.api.net.Cancellable;
import io.troupe.api.net.Connection;
import io.troupe.protocol.ErrorCode;
import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameType;
import io.troupe.server.tenant.TenantMetrics;

/**
 * The REQUESTs of one session that were handed to handlers and are not answered yet, their
 * deadlines, and the one answer each gets: the REPLY or ERROR its ask completes with ({@link Replies}),
 * ERROR {@code handler.timeout} at its deadline, or, when the server gives up waiting, ERROR
 * {@code server.shutdown}. Whichever comes first {@linkplain PendingRequest#claim() claims} the
 * request; the others are dropped.
 *
 * <h2>Deadlines on the loop</h2>
 * Requests are asked without a runtime timer ({@link ActorRef#ask(Object)}); the session keeps them
 * in the order sent, and one timer of the connection's loop, set for the earliest deadline, sweeps
 * out those past it. So a request costs no timer and no shared set, only a place in a loop-confined
 * queue:
 *
 * <pre>
 *   loop:    ask ─► prune answered requests at the head ─► append ─► (earlier than the sweep?) re-arm it
 *   worker:  reply ─► claim ─► answer queued for the loop ─► unanswered − 1
 *   loop:    answers written ─► drop answered requests at the head
 *   loop:    sweep at the earliest deadline ─► claim and time out the requests past theirs ─► re-arm
 * </pre>
 *
 * With one timeout per tenant the queue is in deadline order. Answered requests leave it from the
 * head, and the whole queue is compacted once answered ones are more than half of it, so it holds at
 * most about twice the unanswered requests.
 *
 * <p>While the session drains (BYE, end of input, shutdown) the answer that leaves nothing
 * unanswered hands {@code onLastAnswer} to the connection's loop.
 *
 * <h2>Counting</h2>
 * Once the session knows its tenant ({@link #countFor}), each answer records the request's latency, from the
 * ask to the answer queued for the loop, in the tenant's histogram (on the thread that answers: no lock, no
 * allocation), and each ERROR frame is counted by its code. The clock read for the latency is the one
 * {@code lastAnswerNanos} needs anyway, so counting adds one histogram increment per answer.
 *
 * <p><b>Threading:</b> the part of a session that other threads touch. Asks, sweeps,
 * {@link #giveUp} and {@link #abandon} run on the loop, which alone touches the queue; asks complete
 * on runtime threads (a worker), which claim the request and queue the answer in an
 * {@link AnswerBatch} that the loop encodes and writes. {@code unanswered} is atomic; {@code draining}
 * is set on the loop before it looks at the count, and read by completions after they lower it, so
 * that one of the two sees the last answer.
 */
final class RequestsInFlight implements Runnable {

    /** The queue is compacted when it holds more than this many more entries than twice the unanswered. */
    private static final int COMPACTION_SLACK = 64;

    private static final VarHandle UNANSWERED;

    static {
        try {
            UNANSWERED = MethodHandles.lookup().findVarHandle(RequestsInFlight.class, "unanswered", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Connection connection;
    private final LongSupplier nanoClock;
    private final Runnable onLastAnswer;
    private final Runnable onWritten;
    private final AnswerBatch answers;
    /** Requests asked and not yet answered (a field with a VarHandle: no AtomicInteger per session). */
    private volatile int unanswered;
    private volatile boolean draining;
    private volatile long lastAnswerNanos;
    /** The tenant's counters, once the session has one; null before (no request is asked before). */
    private volatile TenantMetrics metrics;
    // Loop-confined.
    /** Starts with room for one (ArrayDeque's default is 16): an idle session holds 24 bytes here, not 88. */
    private final ArrayDeque<PendingRequest> sent = new ArrayDeque<>(1);
    private Cancellable sweep;
    private long sweepAt;

    /**
     * @param nanoClock    the clock of the connection's loop timers, for deadlines
     * @param onLastAnswer runs on the loop when, while draining, the last request has been answered
     * @param onWritten    runs on the loop after answers were written to the connection
     */
    RequestsInFlight(Connection connection, LongSupplier nanoClock, Runnable onLastAnswer, Runnable onWritten) {
        this.connection = connection;
        this.nanoClock = nanoClock;
        this.onLastAnswer = onLastAnswer;
        this.onWritten = onWritten;
        this.answers = new AnswerBatch(connection, this);
        this.lastAnswerNanos = nanoClock.getAsLong();
    }

    /**
     * Asks {@code target} and answers the REQUEST {@code corrId}/{@code message.name()} when it
     * completes, or with {@code handler.timeout} after {@code timeout}. On the loop.
     */
    void ask(ActorRef target, Message message, long corrId, Duration timeout) {
        long now = nanoClock.getAsLong();
        PendingRequest request = new PendingRequest(corrId, message.name(), now, now + timeout.toNanos(),
                timeout);
        pruneAnswered();
        sent.addLast(request);
        UNANSWERED.getAndAdd(this, 1);
        armSweep(request.deadline());
        target.ask(message).whenComplete((reply, failure) -> answer(request, reply, failure));
    }

    /**
     * After answers were written, on the loop: drops the answered requests at the head (an idle session
     * keeps none of its past requests), then tells {@code onWritten}. The batch's callback: no lambda per
     * session.
     */
    @Override
    public void run() {
        dropAnsweredHead();
        onWritten.run();
    }

    /** From now on, the last answer calls {@code onLastAnswer}. On the loop. */
    void draining() {
        draining = true;
    }

    boolean isEmpty() {
        return unanswered == 0;
    }

    /** Requests not answered yet. Any thread. */
    int size() {
        return unanswered;
    }

    /** Requests in the queue, answered ones not yet dropped included. On the loop. */
    int tracked() {
        return sent.size();
    }

    /** When the last answer was written, on the clock given; the time of creation before any. */
    long lastAnswerNanos() {
        return lastAnswerNanos;
    }

    /** Answers every request still waiting with ERROR {@code server.shutdown}; later replies are dropped. On the loop. */
    void giveUp() {
        PendingRequest request;
        while ((request = sent.pollFirst()) != null) {
            if (request.claim()) {
                answerWith(request, Replies.error(request.corrId(), ErrorCode.SERVER_SHUTDOWN,
                        "the server is stopping; '" + request.name() + "' was not answered in time"));
            }
        }
        disarmSweep();
    }

    /**
     * Writes the answers queued so far; the session calls it on the loop before writing a frame of
     * its own, so that those answers go first.
     */
    void flushAnswers() {
        answers.flush();
    }

    /** The connection is gone: nobody is left to answer. On the loop. */
    void abandon() {
        draining = false;
        answers.clear();
        PendingRequest request;
        while ((request = sent.pollFirst()) != null) {
            if (request.claim()) {
                UNANSWERED.getAndAdd(this, -1);
            }
        }
        disarmSweep();
    }

    /**
     * Counts the answers' latencies and the ERROR frames written from now on in {@code tenant}'s counters (the
     * session's tenant is known). Any thread.
     */
    void countFor(TenantMetrics tenant) {
        metrics = tenant;
    }

    private void answer(PendingRequest request, Object reply, Throwable failure) {
        if (!request.claim()) {
            return;
        }
        Frame frame;
        try {
            frame = failure == null
                    ? Replies.reply(request.corrId(), request.name(), reply)
                    : Replies.failure(request.corrId(), request.name(), failure, request.timeout());
        } catch (RuntimeException e) {
            frame = Replies.error(request.corrId(), ErrorCode.HANDLER_FAILED,
                    "the reply of '" + request.name() + "' cannot be sent: " + e.getMessage());
        }
        answerWith(request, frame);
    }

    /**
     * Queues {@code frame}, the answer of the claimed {@code request}, with its bookkeeping: the latency is
     * counted before the frame is queued, so that a client holding its answer finds it in the tenant's
     * histogram; the count of unanswered requests goes down after, so that the last answer's flush precedes
     * {@code onLastAnswer}. Any thread.
     */
    private void answerWith(PendingRequest request, Frame frame) {
        long now = nanoClock.getAsLong();
        lastAnswerNanos = now;
        TenantMetrics tenant = metrics;
        if (tenant != null) {
            tenant.latency().record(now - request.askedAt());
        }
        write(frame);
        if ((int) UNANSWERED.getAndAdd(this, -1) == 1 && draining) {
            // After the answer's flush task, which it queued (or found queued) on the same loop.
            connection.execute(onLastAnswer);
        }
    }

    /** Times out the requests past their deadline, then re-arms for the earliest one left. On the loop. */
    private void sweep() {
        sweep = null;
        long now = nanoClock.getAsLong();
        int count = sent.size();
        boolean any = false;
        long earliest = 0;
        for (int i = 0; i < count; i++) {
            PendingRequest request = sent.pollFirst();
            if (request.isAnswered()) {
                continue;
            }
            if (request.deadline() - now <= 0) {
                if (request.claim()) {
                    answerWith(request, Replies.timeout(request.corrId(), request.name(), request.timeout()));
                }
                continue;
            }
            sent.addLast(request);
            if (!any || request.deadline() - earliest < 0) {
                earliest = request.deadline();
                any = true;
            }
        }
        if (any) {
            armSweep(earliest);
        }
    }

    /** Drops answered requests from the head, and compacts the queue when they crowd it. On the loop. */
    private void pruneAnswered() {
        dropAnsweredHead();
        if (sent.size() > 2 * unanswered + COMPACTION_SLACK) {
            int count = sent.size();
            for (int i = 0; i < count; i++) {
                PendingRequest request = sent.pollFirst();
                if (!request.isAnswered()) {
                    sent.addLast(request);
                }
            }
        }
    }

    private void dropAnsweredHead() {
        PendingRequest head;
        while ((head = sent.peekFirst()) != null && head.isAnswered()) {
            sent.pollFirst();
        }
    }

    /** Makes sure a sweep runs at {@code deadline} or earlier. On the loop. */
    private void armSweep(long deadline) {
        if (sweep != null && sweepAt - deadline <= 0) {
            return;
        }
        disarmSweep();
        sweepAt = deadline;
        sweep = connection.schedule(this::sweep, Duration.ofNanos(Math.max(0, deadline - nanoClock.getAsLong())));
    }

    private void disarmSweep() {
        if (sweep != null) {
            sweep.cancel();
            sweep = null;
        }
    }

    private void write(Frame frame) {
        TenantMetrics tenant = metrics;
        if (tenant != null && frame.type() == FrameType.ERROR) {
            tenant.countError(frame.name());
        }
        answers.add(frame);
    }
}
