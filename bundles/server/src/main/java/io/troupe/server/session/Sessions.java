package io.troupe.server.session;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiPredicate;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.ActorRef;
import io.troupe.api.TroupeRuntime;
import io.troupe.api.net.ConnectionHandlerFactory;
import io.troupe.api.net.ConnectionOptions;
import io.troupe.server.auth.Authenticator;
import io.troupe.server.cluster.TenantPlacements;
import io.troupe.server.tenant.TenantDirectory;

/**
 * The live sessions of one server and what they share: the runtime, the tenants, the
 * {@link Authenticator} that checks their HELLOs and the current {@link SessionLimits}. Creates a
 * {@link Session} for each accepted connection, pushes changed limits to them, and stops them all at
 * shutdown:
 *
 * <pre>
 *  shutdown(answerWithin, closeWithin)
 *    1. no new session; every session: beginShutdown  (new requests: ERROR server.shutdown;
 *                                                      in flight: answered; then BYE, close)
 *    2. wait until all closed, at most answerWithin
 *    3. the rest: forceShutdown  (unanswered: ERROR server.shutdown; BYE; close)
 *    4. wait until all closed, at most closeWithin
 *    5. stop the authenticator's threads
 * </pre>
 *
 * <p><b>Threading:</b> any thread. The registry is guarded by a lock that is held only to add,
 * remove or copy, never while calling a session; sessions are reached through their connection's
 * loop ({@code connection.execute}).
 */
public final class Sessions {

    private static final Logger LOG = LoggerFactory.getLogger(Sessions.class);

    private final TroupeRuntime runtime;
    private final TenantDirectory tenants;
    private final Authenticator authenticator;
    private final LongSupplier nanoClock;
    private final BiPredicate<ActorRef, Runnable> drainWaiter;
    private volatile SessionLimits limits;
    private volatile TenantPlacements placements = TenantPlacements.standalone();

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Set<Session> live = new HashSet<>();
    private boolean shuttingDown;

    /**
     * @param nanoClock the monotonic clock idle timeouts are measured with ({@code System::nanoTime};
     *                  the connection's timers must follow the same clock)
     */
    public Sessions(TroupeRuntime runtime, TenantDirectory tenants, SessionLimits limits, LongSupplier nanoClock) {
        this(runtime, tenants, Authenticator.start(tenants, nanoClock), limits, nanoClock);
    }

    /** @param authenticator checks the HELLOs; closed by {@link #shutdown} */
    public Sessions(TroupeRuntime runtime, TenantDirectory tenants, Authenticator authenticator, SessionLimits limits,
            LongSupplier nanoClock) {
        this.runtime = Objects.requireNonNull(runtime, "runtime");
        this.tenants = Objects.requireNonNull(tenants, "tenants");
        this.authenticator = Objects.requireNonNull(authenticator, "authenticator");
        this.limits = Objects.requireNonNull(limits, "limits");
        this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
        this.drainWaiter = runtime::awaitDrain;
    }

    /** The factory of sessions for a listener whose connections have {@code options}. */
    public ConnectionHandlerFactory handlers(ConnectionOptions options) {
        int maxInputBuffer = options.maxInputBuffer();
        return connection -> new Session(connection, this, maxInputBuffer);
    }

    /** Applies new limits to every live session (each on its own loop) and to new ones. */
    public void updateLimits(SessionLimits next) {
        limits = Objects.requireNonNull(next, "next");
        for (Session session : snapshot()) {
            session.connection().execute(session::limitsChanged);
        }
    }

    /** Where the sessions' tenants are served: by a cluster, or (the default) all here. */
    public void placements(TenantPlacements next) {
        placements = Objects.requireNonNull(next, "next");
    }

    TenantPlacements placements() {
        return placements;
    }

    /** Sessions open now, authenticated or not. */
    public int size() {
        lock.lock();
        try {
            return live.size();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Stops every session, bounded by {@code answerWithin + closeWithin}: see the class comment.
     *
     * @return whether every session had closed in time
     */
    public boolean shutdown(Duration answerWithin, Duration closeWithin) throws InterruptedException {
        try {
            return stopSessions(answerWithin, closeWithin);
        } finally {
            authenticator.close();
        }
    }

    private boolean stopSessions(Duration answerWithin, Duration closeWithin) throws InterruptedException {
        List<Session> sessions;
        lock.lock();
        try {
            shuttingDown = true;
            sessions = List.copyOf(live);
        } finally {
            lock.unlock();
        }
        if (sessions.isEmpty()) {
            return true;
        }
        int requests = sessions.stream().mapToInt(Session::requestsInFlight).sum();
        LOG.info("Closing {} session(s): answering {} request(s) in flight, for up to {} s", sessions.size(),
                requests, answerWithin.toSeconds());
        for (Session session : sessions) {
            session.connection().execute(session::beginShutdown);
        }
        if (awaitAllClosed(answerWithin)) {
            return true;
        }
        List<Session> late = snapshot();
        LOG.warn("{} session(s) still waiting for handlers after {} s: answering them server.shutdown",
                late.size(), answerWithin.toSeconds());
        for (Session session : late) {
            session.connection().execute(session::forceShutdown);
        }
        if (awaitAllClosed(closeWithin)) {
            return true;
        }
        LOG.warn("{} session(s) did not close within {} s more", size(), closeWithin.toSeconds());
        return false;
    }

    TroupeRuntime runtime() {
        return runtime;
    }

    TenantDirectory tenants() {
        return tenants;
    }

    Authenticator authenticator() {
        return authenticator;
    }

    SessionLimits limits() {
        return limits;
    }

    long nanoTime() {
        return nanoClock.getAsLong();
    }

    /** The clock of every session: one object for them all. */
    LongSupplier nanoClock() {
        return nanoClock;
    }

    /** How every session waits for an actor's backlog to drain ({@code TroupeRuntime.awaitDrain}): one object. */
    BiPredicate<ActorRef, Runnable> drainWaiter() {
        return drainWaiter;
    }

    /** Adds a new session; false once shutdown has begun (the session then closes itself). */
    boolean register(Session session) {
        lock.lock();
        try {
            if (shuttingDown) {
                return false;
            }
            live.add(session);
            return true;
        } finally {
            lock.unlock();
        }
    }

    void unregister(Session session) {
        lock.lock();
        try {
            if (live.remove(session)) {
                changed.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    private List<Session> snapshot() {
        lock.lock();
        try {
            return List.copyOf(live);
        } finally {
            lock.unlock();
        }
    }

    private boolean awaitAllClosed(Duration timeout) throws InterruptedException {
        long left = timeout.toNanos();
        lock.lock();
        try {
            while (!live.isEmpty()) {
                if (left <= 0) {
                    return false;
                }
                left = changed.awaitNanos(left);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "Sessions[" + size() + " live, limits " + limits + "]";
    }
}
