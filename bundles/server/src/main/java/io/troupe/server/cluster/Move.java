package io.troupe.server.cluster;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import io.troupe.api.cluster.Placement;
import io.troupe.server.tenant.HandoverPause;
import io.troupe.server.tenant.TenantSession;

/**
 * One tenant leaving this node: the sessions it paused, which of them are still draining, the HELLOs
 * of the tenant that arrived meanwhile, and, once {@link #redirect} came, where the tenant went.
 *
 * <pre>
 *  pause(open sessions) ─► each: handOver ─► drained(...) ─► all drained: {@link #drained()} completes
 *  redirect(address)    ─► each paused session: BYE tenant.moved; each waiting HELLO: ELSEWHERE(address)
 * </pre>
 *
 * <p><b>Threading:</b> any thread: sessions report from their IO loops, the cluster calls from its own
 * thread. The sets are concurrent; the waiting HELLOs and the redirect address change under this
 * object's lock, which is never held while calling out.
 */
final class Move implements HandoverPause {

    private final String tenant;
    private final long startedNanos;
    private final Set<TenantSession> sessions = ConcurrentHashMap.newKeySet();
    private final Set<TenantSession> undrained = ConcurrentHashMap.newKeySet();
    private final CompletableFuture<Void> drained = new CompletableFuture<>();
    private final AtomicLong answered = new AtomicLong();
    /** Guarded by this: HELLOs of the tenant waiting for the redirect. */
    private final List<Consumer<Placement>> waiting = new ArrayList<>();
    /** Guarded by this: null until {@link #redirect}. */
    private String redirectedTo;
    /** Set once every session open at the start was asked to pause. */
    private volatile boolean paused;
    /** Whether the tenant's actors processed everything before they were stopped; false until known. */
    private volatile boolean mailboxesDrained;

    Move(String tenant, long startedNanos) {
        this.tenant = tenant;
        this.startedNanos = startedNanos;
    }

    String tenant() {
        return tenant;
    }

    long startedNanos() {
        return startedNanos;
    }

    /** Asks {@code open} to pause and drain; {@link #drained()} completes once each has. */
    void pause(Collection<TenantSession> open) {
        sessions.addAll(open);
        undrained.addAll(open);
        for (TenantSession session : open) {
            session.handOver(this);
        }
        paused = true;
        completeIfDrained();
    }

    @Override
    public void drained(TenantSession session, int answeredDuringPause) {
        answered.addAndGet(answeredDuringPause);
        if (undrained.remove(session)) {
            completeIfDrained();
        }
    }

    private void completeIfDrained() {
        if (paused && undrained.isEmpty()) {
            drained.complete(null);
        }
    }

    /** Completes once every session paused has drained (never fails). */
    CompletableFuture<Void> drained() {
        return drained;
    }

    int sessions() {
        return sessions.size();
    }

    /** The sessions not drained yet (for the report of a release that ran out of patience). */
    /** The runtime's wait for the tenant's actors ended: {@code idle}, or patience ran out first. */
    void mailboxesDrained(boolean idle) {
        mailboxesDrained = idle;
    }

    boolean mailboxesDrained() {
        return mailboxesDrained;
    }

    int undrained() {
        return undrained.size();
    }

    long answered() {
        return answered.get();
    }

    /**
     * A HELLO of the tenant arrived during the move: {@code then} gets {@link Placement.Kind#ELSEWHERE}
     * with the new address once {@link #redirect} comes (at once if it came already).
     */
    void awaitRedirect(Consumer<Placement> then) {
        String address;
        synchronized (this) {
            if (redirectedTo == null) {
                waiting.add(then);
                return;
            }
            address = redirectedTo;
        }
        then.accept(moved(address));
    }

    /** Sends every paused session and every waiting HELLO to {@code address}. */
    void redirect(String address) {
        List<Consumer<Placement>> hellos;
        synchronized (this) {
            if (redirectedTo != null) {
                return;
            }
            redirectedTo = address;
            hellos = List.copyOf(waiting);
            waiting.clear();
        }
        for (TenantSession session : sessions) {
            session.redirect(address);
        }
        Placement placement = moved(address);
        for (Consumer<Placement> hello : hellos) {
            hello.accept(placement);
        }
    }

    private Placement moved(String address) {
        return Placement.elsewhere(address, "tenant '" + tenant + "' moved to another node");
    }

    @Override
    public String toString() {
        return "Move[" + tenant + ", " + sessions.size() + " sessions, " + undrained.size() + " draining]";
    }
}
