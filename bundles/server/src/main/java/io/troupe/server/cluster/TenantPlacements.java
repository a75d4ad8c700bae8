package io.troupe.server.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.cluster.Placement;
import io.troupe.api.cluster.TenantPlacement;

/**
 * Where the tenant of a HELLO is served, as the server asks before it welcomes a client.
 *
 * <ul>
 * <li>Standalone (no cluster configured: the framework property {@value #CLUSTER_PROPERTY} is not
 * {@code true}): always here, decided on the caller's thread; nothing waits.</li>
 * <li>Clustered: the cluster's {@link TenantPlacement} decides. Until the node has joined (the service is
 * not registered yet), HELLOs wait for it, at most {@link #JOIN_WAIT}, then are answered
 * {@link Placement.Kind#UNAVAILABLE}. A HELLO of a tenant this node is handing over waits for the
 * handover's redirect ({@link TenantMoves}), as long at most.</li>
 * </ul>
 *
 * <p><b>Threading:</b> any thread. The answer is always given through the caller's executor (its IO
 * loop), never on a cluster thread. The HELLOs waiting for the cluster are kept under this object's
 * lock, which is never held while calling out.
 */
public final class TenantPlacements {

    /** The framework property the launcher sets to {@code true} when etc/io.troupe.cluster.cfg exists. */
    public static final String CLUSTER_PROPERTY = "troupe.cluster";
    /** How long a HELLO waits for this node to join its cluster. */
    public static final Duration JOIN_WAIT = Duration.ofSeconds(30);

    private static final Logger LOG = LoggerFactory.getLogger(TenantPlacements.class);

    private final boolean clustered;
    private final TenantMoves moves;
    private final Duration joinWait;
    private volatile TenantPlacement placement;
    /** Guarded by this: HELLOs waiting for the cluster's placement service. */
    private final List<Waiting> waiting = new ArrayList<>();
    /** Guarded by this: HELLOs waiting for the node to join before their credentials are checked. */
    private final List<Runnable> joining = new ArrayList<>();

    /** A HELLO waiting for the placement service. */
    private record Waiting(String tenant, Executor loop, Consumer<Placement> then) {
    }

    /**
     * @param clustered whether this node belongs to a cluster (then every tenant is placed by it)
     * @param moves     the handovers in progress here; null when standalone
     */
    public TenantPlacements(boolean clustered, TenantMoves moves, Duration joinWait) {
        if (clustered) {
            Objects.requireNonNull(moves, "moves");
        }
        this.clustered = clustered;
        this.moves = moves;
        this.joinWait = Objects.requireNonNull(joinWait, "joinWait");
    }

    /** Every tenant served here, decided at once. */
    public static TenantPlacements standalone() {
        return new TenantPlacements(false, null, JOIN_WAIT);
    }

    /** Whether a cluster places the tenants (else {@link #place} always answers here, at once). */
    public boolean clustered() {
        return clustered;
    }

    /** The handover epoch of {@code tenant}: a session admitted on an answer older than a handover asks again. */
    public long epoch(String tenant) {
        return clustered ? moves.epoch(tenant) : 0L;
    }

    /**
     * Decides where {@code tenant} is served and gives {@code then} the answer through {@code loop}
     * (standalone: {@link Placement#local()}, directly on the calling thread).
     */
    public void place(String tenant, Executor loop, Consumer<Placement> then) {
        if (!clustered) {
            then.accept(Placement.local());
            return;
        }
        Move move = moves.inProgress(tenant);
        if (move != null) {
            awaitRedirect(move, tenant, loop, then);
            return;
        }
        TenantPlacement current = placement;
        if (current == null && !enqueue(new Waiting(tenant, loop, then))) {
            current = placement; // it arrived between the read and the lock
        }
        if (current != null) {
            claim(current, tenant, loop, then);
        }
    }

    /**
     * A HELLO of a tenant this node is handing over waits for the handover's redirect, at most
     * {@code joinWait}: a handover the cluster never finishes does not hold the connection for ever.
     */
    private void awaitRedirect(Move move, String tenant, Executor loop, Consumer<Placement> then) {
        AtomicBoolean answered = new AtomicBoolean();
        move.awaitRedirect(placement -> {
            if (answered.compareAndSet(false, true)) {
                loop.execute(() -> then.accept(placement));
            }
        });
        CompletableFuture.delayedExecutor(joinWait.toMillis(), TimeUnit.MILLISECONDS).execute(() -> {
            if (answered.compareAndSet(false, true)) {
                loop.execute(() -> then.accept(Placement.unavailable("tenant '" + tenant + "' is still being handed"
                        + " over to another node after " + joinWait.toSeconds() + " s")));
            }
        });
    }

    /**
     * Runs {@code then} through {@code loop} once this node has joined its cluster (at once, on the calling
     * thread, standalone or joined), or after {@code joinWait} anyway. A HELLO's credentials are checked
     * only then: a node that has just joined learns the cluster's tenants (their files, copied from the
     * others) before the cluster places any on it, and a client sent to it meanwhile must not be refused as
     * an unknown tenant.
     */
    public void whenJoined(Executor loop, Runnable then) {
        if (!clustered || placement != null) {
            then.run();
            return;
        }
        AtomicBoolean ran = new AtomicBoolean();
        Runnable once = () -> {
            if (ran.compareAndSet(false, true)) {
                loop.execute(then);
            }
        };
        boolean queued;
        synchronized (this) {
            queued = placement == null && joining.add(once);
        }
        if (!queued) {
            then.run(); // it joined between the read and the lock
            return;
        }
        CompletableFuture.delayedExecutor(joinWait.toMillis(), TimeUnit.MILLISECONDS).execute(() -> {
            synchronized (this) {
                joining.remove(once);
            }
            once.run(); // not joined in time: the placement that follows answers why
        });
    }

    /** The cluster's placement service arrived: the HELLOs waiting for it are placed. */
    public void placementArrived(TenantPlacement arrived) {
        List<Waiting> ready;
        List<Runnable> joined;
        synchronized (this) {
            placement = arrived;
            ready = List.copyOf(waiting);
            waiting.clear();
            joined = List.copyOf(joining);
            joining.clear();
        }
        joined.forEach(Runnable::run);
        if (!ready.isEmpty()) {
            LOG.info("The cluster places tenants now: {} HELLO(s) that waited for it go on", ready.size());
        }
        for (Waiting hello : ready) {
            claim(arrived, hello.tenant(), hello.loop(), hello.then());
        }
    }

    /** The cluster's placement service went away (the node leaves its cluster): new HELLOs wait again. */
    public synchronized void placementLeft(TenantPlacement left) {
        if (placement == left) {
            placement = null;
        }
    }

    /** @return false when the service arrived meanwhile (the HELLO was not queued) */
    private boolean enqueue(Waiting hello) {
        synchronized (this) {
            if (placement != null) {
                return false;
            }
            waiting.add(hello);
        }
        CompletableFuture.delayedExecutor(joinWait.toMillis(), TimeUnit.MILLISECONDS).execute(() -> expire(hello));
        return true;
    }

    private void expire(Waiting hello) {
        synchronized (this) {
            if (!waiting.remove(hello)) {
                return;
            }
        }
        hello.loop().execute(() -> hello.then().accept(Placement.unavailable(
                "this node has not joined its cluster within " + joinWait.toSeconds() + " s")));
    }

    private static void claim(TenantPlacement placement, String tenant, Executor loop, Consumer<Placement> then) {
        CompletionStage<Placement> claimed;
        try {
            claimed = placement.claim(tenant);
        } catch (RuntimeException e) {
            claimed = CompletableFuture.failedFuture(e);
        }
        claimed.whenComplete((answer, failure) -> loop.execute(() -> then.accept(failure == null ? answer
                : Placement.unavailable("the cluster could not place tenant '" + tenant + "': " + failure))));
    }

    /** HELLOs waiting for this node to join its cluster. */
    public synchronized int waiting() {
        return waiting.size() + joining.size();
    }
}
