package io.troupe.server.session;

import java.time.Duration;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.UnaryOperator;

import io.troupe.api.TenantPolicy;
import io.troupe.api.TroupeRuntime;
import io.troupe.api.net.Cancellable;
import io.troupe.api.net.Connection;
import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameEncoder;
import io.troupe.protocol.FrameType;
import io.troupe.server.tenant.PendingOutput;
import io.troupe.server.tenant.Tenant;
import io.troupe.server.tenant.ThrottleLimit;

/**
 * The tenant's limits for one session: each frame received after WELCOME passes four gates before the
 * session handles it, and a gate that is shut holds the frame back and stops the connection's reading,
 * so that the rest of the client's bytes wait in the input buffer and then in TCP: the client is slowed
 * down, and nothing it sent is dropped.
 *
 * <pre>
 *  admit(frame) ─► BYTES: tenant's byte bucket has room? ─► REQUESTS (REQUEST, SEND): request bucket? ─►
 *                  QUEUE (REQUEST, SEND): runtime.awaitTenantDrain false? ─►
 *                  OUTPUT (REQUEST, SEND, PING): tenant's pending output not over its bound? ─► true: handle it
 *   a shut gate:   hold the frame, suspend reading, count the tenant throttled by that limit;
 *                  buckets: retry at the next token (at most {@link #RECHECK} later, so that a changed
 *                  limit applies within it); queue: the runtime's drain callback, handed to the loop;
 *                  output: every {@link PendingOutput#RECOUNT}, recount the tenant's connections and look again
 *   reopened:      the gates after it run; once all pass, onReleased(frame) on the loop
 * </pre>
 *
 * <p>The output gate reads the tenant's {@link PendingOutput}: this session's share of it is updated by
 * {@link #outputWritten()} after the session writes on the loop, and its connection leaves it when the
 * connection closes ({@link #drop()}). The gate shuts above {@code maxPendingOutputBytes} and opens again
 * at half of it, for all the tenant's sessions alike; a connection's own pending output is bounded by the
 * reactor (not read above its high-water mark), this gate bounds their sum.
 *
 * <p>Each wait is numbered; {@link #takeBack()} and {@link #drop()} end the current one, so a retry or
 * drain that comes late is recognised as stale and ignored. The gates read the tenant's current
 * buckets and policy every time, so a changed limit applies to a frame already held.
 *
 * <p><b>Threading:</b> confined to the connection's loop, like the session; the runtime's drain
 * callback, on a runtime thread, only queues a task on the loop.
 */
final class SessionThrottle {

    /** The gates in order ({@code values()} copies its array at every call: this is per frame). */
    private static final ThrottleLimit[] GATES = ThrottleLimit.values();

    /** The longest a held frame waits before its gate is looked at again. */
    static final Duration RECHECK = Duration.ofMillis(250);
    /** The shortest wait for a token, so that a busy bucket does not spin the loop. */
    static final Duration MIN_RETRY = Duration.ofMillis(1);

    private final Connection connection;
    private final BiPredicate<String, Runnable> awaitTenantDrain;
    private final Function<String, TenantPolicy> policies;
    private final UnaryOperator<Runnable> guard;
    private final Consumer<Frame> onReleased;

    // Loop-confined.
    private Tenant tenant;
    private PendingOutput.Share output;
    private Frame frame;
    private ThrottleLimit heldBy;
    private TenantPolicy policyWhenHeld;
    private Cancellable retry;
    /** Numbers the waits: a retry or drain that does not carry the current number is stale. */
    private long waits;

    /**
     * @param runtime    the runtime: {@link TroupeRuntime#awaitTenantDrain} and the tenants' policies
     * @param guard      wraps every loop task, so that a failure closes this connection alone
     * @param onReleased takes a held frame back, on the loop, once every gate let it through
     */
    SessionThrottle(Connection connection, TroupeRuntime runtime, UnaryOperator<Runnable> guard,
            Consumer<Frame> onReleased) {
        this(connection, runtime::awaitTenantDrain, runtime::tenantPolicy, guard, onReleased);
    }

    SessionThrottle(Connection connection, BiPredicate<String, Runnable> awaitTenantDrain,
            Function<String, TenantPolicy> policies, UnaryOperator<Runnable> guard,
            Consumer<Frame> onReleased) {
        this.connection = connection;
        this.awaitTenantDrain = awaitTenantDrain;
        this.policies = policies;
        this.guard = guard;
        this.onReleased = onReleased;
    }

    /** From WELCOME on, frames count against {@code owner}'s limits. */
    void attach(Tenant owner) {
        this.tenant = owner;
        this.output = owner.metrics().pendingOutput().join(connection::pendingOutputBytes);
        output.update();
    }

    /** The session wrote (or its output drained): its share of the tenant's pending output is read again. */
    void outputWritten() {
        if (output != null) {
            output.update();
        }
    }

    /**
     * Runs the gates for a frame just decoded.
     *
     * @return true if every gate let it through: the caller handles it now; false if it is held (reading
     *         is suspended) and will come back through {@code onReleased}
     */
    boolean admit(Frame received) {
        if (tenant == null) {
            return true;
        }
        return pass(received, ThrottleLimit.BYTES_PER_SECOND);
    }

    /** Whether a frame is held: the session then neither decodes nor counts as idle. */
    boolean isHolding() {
        return frame != null;
    }

    /** The limit holding the frame back now, or {@code null}. */
    ThrottleLimit heldBy() {
        return heldBy;
    }

    /**
     * Ends the wait and returns the held frame, for the session to answer otherwise; {@code null} if none
     * was held. Reading stays suspended: resuming it is the caller's decision.
     */
    Frame takeBack() {
        Frame taken = frame;
        forget();
        return taken;
    }

    /** Ends the wait and forgets the held frame: the connection closed, and its output leaves the tenant's. */
    void drop() {
        forget();
        if (output != null) {
            output.leave();
        }
    }

    /** Runs the gates from {@code first} on; holds the frame at the first one that is shut. */
    private boolean pass(Frame candidate, ThrottleLimit first) {
        boolean request = candidate.type() == FrameType.REQUEST || candidate.type() == FrameType.SEND;
        for (int i = first.ordinal(); i < GATES.length; i++) {
            ThrottleLimit gate = GATES[i];
            switch (gate) {
                case BYTES_PER_SECOND -> {
                    // the size walks the name: only when a byte rate is set (not by default)
                    if (tenant.limitsBytes() && !tenant.tryAcquireBytes(FrameEncoder.encodedSize(candidate))) {
                        holdForToken(candidate, gate);
                        return false;
                    }
                }
                case REQUESTS_PER_SECOND -> {
                    if (request && !tenant.tryAcquireRequest()) {
                        holdForToken(candidate, gate);
                        return false;
                    }
                }
                case QUEUED_MESSAGES -> {
                    if (request && awaitDrain(candidate)) {
                        return false;
                    }
                }
                case PENDING_OUTPUT -> {
                    if ((request || candidate.type() == FrameType.PING) && outputOver()) {
                        long wait = hold(candidate, gate);
                        retry = connection.schedule(guard.apply(() -> outputCheck(wait)), PendingOutput.RECOUNT);
                        return false;
                    }
                }
                default -> throw new IllegalStateException("no gate for " + gate);
            }
        }
        return true;
    }

    private void holdForToken(Frame candidate, ThrottleLimit limit) {
        long wait = hold(candidate, limit);
        long nanos = Math.max(MIN_RETRY.toNanos(), Math.min(RECHECK.toNanos(), tenant.nanosUntilAvailable(limit)));
        retry = connection.schedule(guard.apply(() -> retry(wait)), Duration.ofNanos(nanos));
    }

    /** Asks the runtime whether the tenant's queue is full; if it is, holds the frame until it drains. */
    private boolean awaitDrain(Frame candidate) {
        long next = waits + 1;
        boolean full = awaitTenantDrain.test(tenant.id(),
                () -> connection.execute(guard.apply(() -> retry(next))));
        if (!full) {
            return false;
        }
        long wait = hold(candidate, ThrottleLimit.QUEUED_MESSAGES);
        assert wait == next;
        policyWhenHeld = policies.apply(tenant.id());
        retry = connection.schedule(guard.apply(() -> policyCheck(wait)), RECHECK);
        return true;
    }

    /**
     * Whether the tenant's pending output is over its bound; when it seems so, the tenant's connections
     * are recounted first (at most every {@link PendingOutput#RECOUNT}), as their shares may be stale.
     */
    private boolean outputOver() {
        PendingOutput pending = tenant.metrics().pendingOutput();
        int limit = tenant.config().limits().maxPendingOutputBytes();
        if (!pending.isOver(limit)) {
            return false;
        }
        pending.recount(tenant.nanoTime());
        return pending.isOver(limit);
    }

    /** While the output bound holds a frame: recount, and let it through once the total is down to half. */
    private void outputCheck(long wait) {
        if (wait != waits || frame == null) {
            return;
        }
        retry = null;
        output.update();
        if (outputOver()) {
            retry = connection.schedule(guard.apply(() -> outputCheck(wait)), PendingOutput.RECOUNT);
        } else {
            retry(wait);
        }
    }

    /** While the queue holds a frame: a changed policy (a raised or lifted limit) is asked about again. */
    private void policyCheck(long wait) {
        if (wait != waits || frame == null) {
            return;
        }
        if (policies.apply(tenant.id()).equals(policyWhenHeld)) {
            retry = connection.schedule(guard.apply(() -> policyCheck(wait)), RECHECK);
        } else {
            retry(wait);
        }
    }

    /** Holds {@code candidate} at {@code limit}; returns the wait's number. */
    private long hold(Frame candidate, ThrottleLimit limit) {
        if (frame == null) {
            connection.suspendReading();
        }
        if (heldBy != limit) {
            if (heldBy != null) {
                tenant.throttling().limit(heldBy).end(tenant.nanoTime());
            }
            tenant.throttling().limit(limit).begin(tenant.nanoTime());
        }
        frame = candidate;
        heldBy = limit;
        return ++waits;
    }

    /** A token may be there, the queue drained, or the policy changed: the shut gate and those after it again. */
    private void retry(long wait) {
        if (wait != waits || frame == null) {
            return; // stale: taken back, dropped, or a newer wait began
        }
        cancelRetry();
        Frame held = frame;
        if (pass(held, heldBy)) {
            forget();
            onReleased.accept(held);
        }
    }

    private void forget() {
        if (heldBy != null) {
            tenant.throttling().limit(heldBy).end(tenant.nanoTime());
        }
        cancelRetry();
        frame = null;
        heldBy = null;
        policyWhenHeld = null;
        waits++;
    }

    private void cancelRetry() {
        if (retry != null) {
            retry.cancel();
            retry = null;
        }
    }
}
