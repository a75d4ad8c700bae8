package io.troupe.server.tenant;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * A tenant as the server serves it: its id, its current configuration (credentials and limits), the
 * sessions open for it, the token buckets of its rates ({@link RateLimiter}: requests, inbound bytes),
 * its traffic counters and its throttling. Its configuration may change while sessions are open; the
 * new limits apply to the next HELLO and the next frame, and the sessions are told
 * ({@link TenantSession#tenantChanged}) so that a new frame limit applies at once. Open sessions stay
 * open when the token changes or the connection limit drops below their number.
 *
 * <p><b>Threading:</b> every method from any thread: the IO loops of all its sessions admit and
 * count concurrently (lock-free), and the configuration thread updates and removes it.
 */
public final class Tenant {

    /** The outcome of {@link #admit}. */
    public enum Admission {
        /** The session is counted and will be told if the tenant goes away. */
        ADMITTED,
        /** The tenant has {@code maxConnections} sessions already. */
        QUOTA_EXCEEDED,
        /** The tenant was removed meanwhile. */
        REMOVED
    }

    private final String id;
    private final LongSupplier nanoClock;
    private final AtomicInteger connections = new AtomicInteger();
    private final TenantMetrics metrics;
    private final TenantThrottling throttling = new TenantThrottling();
    private final Set<TenantSession> sessions = ConcurrentHashMap.newKeySet();
    private volatile TenantConfig config;
    private volatile RateLimiter requestRate;
    private volatile RateLimiter byteRate;
    private volatile boolean removed;

    Tenant(TenantConfig config, LongSupplier nanoClock) {
        this.id = config.id();
        this.nanoClock = nanoClock;
        this.config = config;
        this.requestRate = limiterFor(config.limits().maxRequestsPerSecond());
        this.byteRate = limiterFor(config.limits().maxBytesPerSecond());
        this.metrics = new TenantMetrics(nanoClock.getAsLong());
    }

    public String id() {
        return id;
    }

    /** The current configuration. */
    public TenantConfig config() {
        return config;
    }

    /** The tenant's traffic counters; kept across configuration changes. */
    public TenantMetrics metrics() {
        return metrics;
    }

    /** How long each limit has throttled the tenant, and its episodes. */
    public TenantThrottling throttling() {
        return throttling;
    }

    /** The clock the tenant's rates and throttled time are measured with. */
    public long nanoTime() {
        return nanoClock.getAsLong();
    }

    /** Sessions open now. */
    public int connections() {
        return connections.get();
    }

    /**
     * Counts {@code session} against the connection quota. An admitted session must call
     * {@link #leave} exactly once when it closes.
     */
    public Admission admit(TenantSession session) {
        if (removed) {
            return Admission.REMOVED;
        }
        int max = config.maxConnections();
        int current;
        do {
            current = connections.get();
            if (current >= max) {
                return Admission.QUOTA_EXCEEDED;
            }
        } while (!connections.compareAndSet(current, current + 1));
        sessions.add(session);
        // remove() sets the flag, then visits the sessions: one of the two sees the other.
        if (removed) {
            leave(session);
            return Admission.REMOVED;
        }
        return Admission.ADMITTED;
    }

    /** Releases the connection counted by {@link #admit}; a second call does nothing. */
    public void leave(TenantSession session) {
        if (sessions.remove(session)) {
            connections.decrementAndGet();
        }
    }

    /** The sessions open now (a copy). */
    public List<TenantSession> sessions() {
        return List.copyOf(sessions);
    }

    /** Takes one request from the tenant's rate; always true when the rate is unlimited. */
    public boolean tryAcquireRequest() {
        RateLimiter current = requestRate;
        return current == null || current.tryAcquire();
    }

    /** Whether the tenant has a byte rate (so that a frame's size is worth computing for {@link #tryAcquireBytes}). */
    public boolean limitsBytes() {
        return byteRate != null;
    }

    /** Takes {@code bytes} from the tenant's inbound byte rate; always true when it is unlimited. */
    public boolean tryAcquireBytes(int bytes) {
        RateLimiter current = byteRate;
        return current == null || current.tryAcquire(Math.max(1, bytes));
    }

    /** How long until {@code limit}'s bucket has a token again; 0 now, or when the limit is off. */
    public long nanosUntilAvailable(ThrottleLimit limit) {
        RateLimiter current = switch (limit) {
            case BYTES_PER_SECOND -> byteRate;
            case REQUESTS_PER_SECOND -> requestRate;
            default -> null; // QUEUED_MESSAGES, PENDING_OUTPUT: no bucket
        };
        return current == null ? 0 : current.nanosUntilAvailable();
    }

    /** Whether the tenant's configuration was deleted. */
    public boolean isRemoved() {
        return removed;
    }

    /**
     * Applies a changed configuration; a rate starts afresh (full) only when it changed. Tells every
     * session, so that a new frame limit applies to them.
     */
    void update(TenantConfig next) {
        TenantLimits previous = config.limits();
        config = next;
        if (previous.maxRequestsPerSecond() != next.limits().maxRequestsPerSecond()) {
            requestRate = limiterFor(next.limits().maxRequestsPerSecond());
        }
        if (previous.maxBytesPerSecond() != next.limits().maxBytesPerSecond()) {
            byteRate = limiterFor(next.limits().maxBytesPerSecond());
        }
        if (!previous.equals(next.limits())) {
            for (TenantSession session : List.copyOf(sessions)) {
                session.tenantChanged(this);
            }
        }
    }

    /**
     * Marks the tenant removed and asks every session to close, saying {@code reason} in its BYE;
     * returns how many were asked.
     */
    int remove(String reason) {
        removed = true;
        List<TenantSession> open = List.copyOf(sessions);
        for (TenantSession session : open) {
            session.tenantRemoved(this, reason);
        }
        return open.size();
    }

    private RateLimiter limiterFor(int rate) {
        return rate == 0 ? null : new RateLimiter(rate, nanoClock);
    }

    @Override
    public String toString() {
        return "Tenant[" + id + ", " + connections.get() + " connections]";
    }
}
