package io.troupe.server.session;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;

/**
 * A REQUEST handed to a handler and not yet answered. Whoever {@linkplain #claim() claims} it first
 * sends the one answer: the handler's reply (REPLY or ERROR), the session's timeout (ERROR
 * {@code handler.timeout}) at its deadline, or the shutdown that gives up waiting (ERROR
 * {@code server.shutdown}).
 *
 * <p><b>Threading:</b> immutable but for the claim, which is atomic; any thread. The claim is a field of this
 * object rather than an {@code AtomicBoolean} of its own: one object less, and one reference less to follow,
 * for every request.
 */
final class PendingRequest {

    private static final VarHandle ANSWERED;

    static {
        try {
            ANSWERED = MethodHandles.lookup().findVarHandle(PendingRequest.class, "answered", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long corrId;
    private final String name;
    private final long askedAt;
    private final long deadline;
    private final Duration timeout;
    private volatile boolean answered;

    /**
     * @param askedAt  when it was handed to its handler, on the session's clock, for its latency
     * @param deadline when the request times out, on the session's clock
     * @param timeout  the time it was given, for the error message
     */
    PendingRequest(long corrId, String name, long askedAt, long deadline, Duration timeout) {
        this.corrId = corrId;
        this.name = name;
        this.askedAt = askedAt;
        this.deadline = deadline;
        this.timeout = timeout;
    }

    long corrId() {
        return corrId;
    }

    String name() {
        return name;
    }

    long askedAt() {
        return askedAt;
    }

    long deadline() {
        return deadline;
    }

    Duration timeout() {
        return timeout;
    }

    /** Returns true exactly once: the caller then sends the answer. */
    boolean claim() {
        return !answered && ANSWERED.compareAndSet(this, false, true);
    }

    /** Whether the request has been claimed; it then needs no more tracking. */
    boolean isAnswered() {
        return answered;
    }

    @Override
    public String toString() {
        return "PendingRequest[" + name + " corrId=" + Long.toUnsignedString(corrId) + "]";
    }
}
