package io.troupe.server.tenant;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The bytes written for one tenant and not yet taken by its clients, over all its connections, and
 * whether they are over the tenant's {@code maxPendingOutputBytes}.
 *
 * <pre>
 *   session (its loop), after it writes:  share.update() ─► total += connection's pending − its share
 *   a session held by the bound:          recount(now), at most every {@link #RECOUNT} for the tenant:
 *                                         every share re-reads its connection (output drained meanwhile)
 *   isOver(limit):                        total &gt; limit shuts; total &le; limit / 2 opens again
 * </pre>
 *
 * <p>A connection's pending output shrinks as the reactor writes to the socket, without telling the
 * session; a share keeps the figure of its last update until then, so the total may be higher than
 * the truth between recounts, never lower after one: the bound errs on the side of memory. The
 * hysteresis (shut above the limit, open at half of it) keeps the tenant's sessions from being
 * switched on and off at every reply.
 *
 * <p><b>Threading:</b> lock-free, from any thread: shares of the tenant's connections update from
 * their own loops concurrently; each share's update is atomic on its own ({@code getAndSet} of its
 * figure, then the difference added to the total), so the total is always the sum of the shares'
 * latest figures.
 */
public final class PendingOutput {

    /** How often, at most, the shares are all re-read while a session waits for the total to fall. */
    public static final Duration RECOUNT = Duration.ofMillis(50);

    private static final VarHandle COUNTED;

    static {
        try {
            COUNTED = MethodHandles.lookup().findVarHandle(Share.class, "counted", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final AtomicLong total = new AtomicLong();
    private final Set<Share> shares = ConcurrentHashMap.newKeySet();
    private final AtomicLong recountedAt;
    private volatile boolean over;

    /** @param nowNanos the time the counting starts, on the clock later given to {@link #recount} */
    PendingOutput(long nowNanos) {
        this.recountedAt = new AtomicLong(nowNanos - RECOUNT.toNanos());
    }

    /**
     * A connection's share: {@code pendingBytes} reads its pending output (any thread). The share
     * counts from its first {@link Share#update()} until {@link Share#leave()}.
     */
    public Share join(LongSupplier pendingBytes) {
        Share share = new Share(pendingBytes);
        shares.add(share);
        return share;
    }

    /** The bytes pending over all the tenant's connections, as last updated. */
    public long bytes() {
        return total.get();
    }

    /** Connections counted. */
    public int connections() {
        return shares.size();
    }

    /**
     * Whether the tenant's pending output is over {@code limit} (0: no limit): it becomes so above
     * the limit, and stops being so once the total is at or below half of it.
     */
    public boolean isOver(long limit) {
        if (limit <= 0) {
            if (over) {
                over = false;
            }
            return false;
        }
        long bytes = total.get();
        boolean was = over;
        boolean now = bytes > limit || (was && bytes > limit / 2);
        if (now != was) {
            over = now; // written on a change only: every frame of every connection of the tenant reads it
        }
        return now;
    }

    /**
     * Re-reads every connection's pending output, unless another caller did within {@link #RECOUNT}
     * of {@code nowNanos}; the cost is one read per connection of the tenant per {@link #RECOUNT}, however
     * many sessions wait.
     */
    public void recount(long nowNanos) {
        long last = recountedAt.get();
        if (nowNanos - last < RECOUNT.toNanos() || !recountedAt.compareAndSet(last, nowNanos)) {
            return;
        }
        for (Share share : shares) {
            share.update();
        }
    }

    /**
     * One connection's part of the total.
     *
     * <p><b>Threading:</b> {@link #update} from any thread (its session's loop, or a recount);
     * {@link #leave} once, from its session's loop when the connection closes.
     */
    public final class Share {

        private final LongSupplier pendingBytes;
        /** The bytes this share adds to the total (a field with a VarHandle: no AtomicLong per connection). */
        private volatile long counted;
        private volatile boolean left;

        private Share(LongSupplier pendingBytes) {
            this.pendingBytes = pendingBytes;
        }

        /** Re-reads the connection's pending output into the total. */
        public void update() {
            if (left) {
                return;
            }
            long now = pendingBytes.getAsLong();
            long delta = now - (long) COUNTED.getAndSet(this, now);
            if (delta != 0) {
                total.addAndGet(delta);
            }
            if (left) {
                retract(); // left meanwhile: take back what this update may have added after leave() did
            }
        }

        /** The bytes this share counts now. */
        public long bytes() {
            return counted;
        }

        /** The connection closed: its share leaves the total. */
        public void leave() {
            left = true;
            shares.remove(this);
            retract();
        }

        private void retract() {
            long counted = (long) COUNTED.getAndSet(this, 0L);
            if (counted != 0) {
                total.addAndGet(-counted);
            }
        }
    }
}
