package io.troupe.server.cluster;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.troupe.api.ActorInfo;
import io.troupe.api.TroupeRuntime;
import io.troupe.api.cluster.HandoverReport;
import io.troupe.api.cluster.TenantHandover;
import io.troupe.server.tenant.Tenant;
import io.troupe.server.tenant.TenantDirectory;
import io.troupe.server.tenant.TenantSession;

/**
 * The server's {@link TenantHandover}: moves a tenant off this node as the cluster asks.
 *
 * <pre>
 *  release(tenant)   1. a {@link Move} is recorded and the tenant's epoch raised: HELLOs of the tenant
 *                       from now on wait for the redirect, and a session admitted on an older answer
 *                       asks again ({@link TenantPlacements})
 *                    2. every open session pauses: reads nothing more, answers what it accepted
 *                    3. drained (or out of patience): the runtime waits for the tenant's actors to
 *                       process what the sessions sent them (TroupeRuntime.awaitTenantIdle), then
 *                       stops them for the next node (handOverTenant), which stores their durable
 *                       state and the exported state of the others; its policy is set again for a
 *                       later return
 *  redirect(tenant)  4. paused sessions: BYE tenant.moved address; waiting HELLOs: ERROR tenant.moved
 * </pre>
 *
 * Nothing is dropped on this node: frames the clients send during the pause stay unread in the network
 * and die with the connection after the BYE, unread, which is what lets the clients send them again.
 *
 * <p><b>Threading:</b> any thread; never blocks. The moves and epochs are concurrent maps; the stages
 * complete on runtime threads (or the JDK's delayer, for patience running out).
 */
public final class TenantMoves implements TenantHandover {

    private static final Logger LOG = LoggerFactory.getLogger(TenantMoves.class);

    private final TenantDirectory directory;
    private final TroupeRuntime runtime;
    private final LongSupplier nanoClock;
    private final ConcurrentHashMap<String, Move> moves = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, CompletableFuture<HandoverReport>> reports = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Long> epochs = new ConcurrentHashMap<>();

    public TenantMoves(TenantDirectory directory, TroupeRuntime runtime, LongSupplier nanoClock) {
        this.directory = Objects.requireNonNull(directory, "directory");
        this.runtime = Objects.requireNonNull(runtime, "runtime");
        this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
    }

    @Override
    public CompletionStage<HandoverReport> release(String tenant, Duration patience) {
        Objects.requireNonNull(tenant, "tenant");
        Move move = new Move(tenant, nanoClock.getAsLong());
        CompletableFuture<HandoverReport> report = new CompletableFuture<>();
        Move existing = moves.putIfAbsent(tenant, move);
        if (existing != null) {
            CompletableFuture<HandoverReport> running = reports.get(tenant);
            return running != null ? running : CompletableFuture.failedFuture(
                    new IllegalStateException("tenant '" + tenant + "' is already being handed over"));
        }
        reports.put(tenant, report);
        // After the move is visible (HELLOs wait for it), before the sessions are listed: a session admitted
        // meanwhile either is listed or sees the new epoch and asks where its tenant is again.
        epochs.merge(tenant, 1L, Long::sum);
        List<TenantSession> open = directory.find(tenant).map(Tenant::sessions).orElse(List.of());
        LOG.info("Handing tenant '{}' over: pausing its {} session(s)", tenant, open.size());
        move.pause(open);
        long deadline = move.startedNanos() + patience.toNanos();
        move.drained().completeOnTimeout(null, patience.toMillis(), TimeUnit.MILLISECONDS)
                .thenCompose(drained -> awaitIdle(tenant, deadline))
                .thenCompose(idle -> {
                    move.mailboxesDrained(idle);
                    return stopActors(tenant);
                })
                .whenComplete((stopped, failure) -> report.complete(report(move, stopped, failure)));
        return report;
    }

    /** The sessions have drained: what they sent on to the actors is processed before they stop. */
    private CompletionStage<Boolean> awaitIdle(String tenant, long deadline) {
        Duration left = Duration.ofNanos(Math.max(0, deadline - nanoClock.getAsLong()));
        try {
            return runtime.awaitTenantIdle(tenant, left);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private CompletionStage<Integer> stopActors(String tenant) {
        try {
            return runtime.handOverTenant(tenant);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private HandoverReport report(Move move, Integer stopped, Throwable failure) {
        String tenant = move.tenant();
        directory.find(tenant).ifPresent(this::reconfigure); // stopTenant forgot its policy; it may come back
        Duration drained = Duration.ofNanos(nanoClock.getAsLong() - move.startedNanos());
        int undrained = move.undrained();
        boolean complete = failure == null && undrained == 0 && move.mailboxesDrained();
        String detail;
        if (failure != null) {
            detail = "its actors could not be stopped: " + failure;
        } else if (undrained > 0) {
            detail = undrained + " session(s) had requests still unanswered when patience ran out; their actors"
                    + " were stopped anyway";
        } else if (!move.mailboxesDrained()) {
            detail = "its actors still had messages to process when patience ran out; they were stopped anyway"
                    + " (the rest are dead letters)";
        } else {
            detail = "drained";
        }
        HandoverReport report = new HandoverReport(tenant, move.sessions(), move.answered(),
                stopped == null ? 0 : stopped, drained, complete, detail);
        if (complete) {
            LOG.info("Tenant '{}' released in {} ms: {} session(s) paused, {} request(s) answered, {} actor(s) "
                    + "stopped", tenant, drained.toMillis(), report.sessions(), report.requests(), report.actors());
        } else {
            LOG.warn("Tenant '{}' released in {} ms, incompletely: {}", tenant, drained.toMillis(), detail);
        }
        return report;
    }

    private void reconfigure(Tenant tenant) {
        try {
            runtime.configureTenant(tenant.id(), tenant.config().limits().policy());
        } catch (RuntimeException e) {
            LOG.warn("Tenant '{}': its policy could not be set again after its handover", tenant.id(), e);
        }
    }

    @Override
    public void redirect(String tenant, String ownerAddress) {
        Objects.requireNonNull(ownerAddress, "ownerAddress");
        Move move = moves.remove(tenant);
        reports.remove(tenant);
        if (move == null) {
            LOG.debug("Redirect of tenant '{}' to '{}' without a handover in progress; ignored", tenant, ownerAddress);
            return;
        }
        LOG.info("Tenant '{}' moved to {}: {} session(s) told BYE tenant.moved", tenant,
                ownerAddress.isEmpty() ? "a node not known yet" : ownerAddress, move.sessions());
        move.redirect(ownerAddress);
    }

    @Override
    public Set<String> activeTenants() {
        Set<String> active = new TreeSet<>();
        for (Tenant tenant : directory.tenants()) {
            if (tenant.connections() > 0) {
                active.add(tenant.id());
            }
        }
        for (ActorInfo actor : runtime.actors()) {
            if (actor.tenant() != null && !actor.tenant().isEmpty()) {
                active.add(actor.tenant());
            }
        }
        return Collections.unmodifiableSet(active);
    }

    @Override
    public Set<String> knownTenants() {
        Set<String> known = new TreeSet<>();
        for (Tenant tenant : directory.tenants()) {
            known.add(tenant.id());
        }
        return Collections.unmodifiableSet(known);
    }

    /** The handover of {@code tenant} in progress here, or null. */
    Move inProgress(String tenant) {
        return moves.get(tenant);
    }

    /** Raised at each handover of {@code tenant}: a placement answered before it is stale. */
    public long epoch(String tenant) {
        return epochs.getOrDefault(tenant, 0L);
    }

    @Override
    public String toString() {
        return "TenantMoves[" + moves.size() + " in progress]";
    }
}
