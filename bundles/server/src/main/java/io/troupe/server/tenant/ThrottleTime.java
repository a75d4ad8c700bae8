package io.troupe.server.tenant;

import java.util.concurrent.atomic.AtomicReference;

/**
 * How long one limit has throttled one tenant: the time during which at least one of its sessions held
 * a frame back on that limit's account (overlapping holds of several sessions count once).
 *
 * <pre>
 *   begin: held 0 → 1 starts an interval at now        end: held 1 → 0 adds now − since to the total
 *   nanos(now) = total + (held &gt; 0 ? now − since : 0)
 * </pre>
 *
 * <p><b>Threading:</b> lock-free: {@link #begin} and {@link #end} from any IO loop, concurrently; the
 * three numbers change together by one compare-and-set of an immutable state (an allocation per hold
 * and release, not per message), so that an interval that ends while another session's begins is
 * neither lost nor counted twice.
 */
public final class ThrottleTime {

    private record State(int held, long since, long total) {
    }

    private final AtomicReference<State> state = new AtomicReference<>(new State(0, 0, 0));

    /** A session starts holding a frame back on this limit's account. */
    public void begin(long nowNanos) {
        State current;
        State next;
        do {
            current = state.get();
            next = current.held == 0 ? new State(1, nowNanos, current.total)
                    : new State(current.held + 1, current.since, current.total);
        } while (!state.compareAndSet(current, next));
    }

    /** A session stops holding its frame back (released, answered otherwise, or closed). */
    public void end(long nowNanos) {
        State current;
        State next;
        do {
            current = state.get();
            if (current.held == 0) {
                throw new IllegalStateException("end() without begin()");
            }
            next = current.held == 1 ? new State(0, 0, current.total + Math.max(0, nowNanos - current.since))
                    : new State(current.held - 1, current.since, current.total);
        } while (!state.compareAndSet(current, next));
    }

    /** Sessions holding a frame back on this limit's account now. */
    public int held() {
        return state.get().held;
    }

    /** The throttled time up to {@code nowNanos}, the interval in progress included. */
    public long nanos(long nowNanos) {
        State current = state.get();
        return current.held == 0 ? current.total : current.total + Math.max(0, nowNanos - current.since);
    }
}
