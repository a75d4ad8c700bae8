package io.troupe.cluster.placement;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.hazelcast.cluster.Member;
import com.hazelcast.map.IMap;

import io.troupe.api.cluster.HandoverReport;
import io.troupe.api.cluster.Migration;
import io.troupe.api.cluster.TenantHandover;

/**
 * The tenants moving away from this node, each in four steps:
 *
 * <pre>
 *  TenantHandover.release(t, patience) ─► handoffs.set(t, me|pausedAt|CAUSE) ─► leases.remove(t, me)
 *     (the server drains t; bounded:            (the new owner reads it:             (the new owner's
 *      patience + 5 s, then on anyway)            the pause is measured)              claim may proceed)
 *  ─► once the partition table names t's owner: TenantHandover.redirect(t, its client address)
 * </pre>
 *
 * Where a tenant's clients are sent depends on the {@link Phase} its {@link Owner} is in: the new owner's
 * client address (published in {@code troupe.nodes}); this node's own when it owns the tenant again; {@code ""}
 * (the clients try the other nodes) below the minimum of members, or when no owner with an address appeared
 * within handoverTimeout.
 *
 * <p><b>Threading:</b> confined to the cluster thread of its {@link TenantOwnership}; a release's stage hops
 * back to that thread through the executor given.
 */
final class TenantReleases {

    /** What decides where a released tenant's clients go. */
    enum Phase {
        /** Serving with enough members: to the new owner, or back here when this node owns the tenant again. */
        SERVING,
        /** Below minimumMembers: to "" at once. */
        BELOW_MINIMUM,
        /** Leaving: to the new owner once the partition has moved away. */
        LEAVING,
        /** Stopped: nothing more is redirected, except by {@link #redirectAll}. */
        CLOSED
    }

    /** What the releases need to know of the ownership that starts them. */
    interface Owner {
        Phase phase();

        /** This member's uuid now. */
        String localNode();

        /** Whether {@code node} is a uuid this member has had. */
        boolean isOwnNode(String node);

        /** The owner of {@code tenant}'s partition, null when not known. */
        Member ownerOf(String tenant);

        /** {@code tenant}'s handoff record is written and its lease removed. */
        void handedOff(String tenant);

        /** A released tenant was redirected. */
        void redirected(String tenant);
    }

    /** How much longer than its patience a release may take before it is handed over anyway. */
    private static final Duration RELEASE_GRACE = Duration.ofSeconds(5);

    private static final Logger LOG = LoggerFactory.getLogger(TenantReleases.class);

    private final TenantHandover handover;
    private final NodeFigures figures;
    private final IMap<String, String> leases;
    private final IMap<String, String> handoffs;
    private final Executor thread;
    private final Duration handoverTimeout;
    private final Owner owner;
    private final Map<String, Release> releasing = new LinkedHashMap<>();
    private Duration patience;

    TenantReleases(TenantHandover handover, NodeFigures figures, IMap<String, String> leases,
            IMap<String, String> handoffs, Executor thread, Duration handoverTimeout, Owner owner) {
        this.handover = handover;
        this.figures = figures;
        this.leases = leases;
        this.handoffs = handoffs;
        this.thread = thread;
        this.handoverTimeout = handoverTimeout;
        this.patience = handoverTimeout;
        this.owner = owner;
    }

    /** The patience of the releases started from now on, when shorter than the current one (a leave's). */
    void shortenPatience(Duration shorter) {
        if (shorter.compareTo(patience) < 0) {
            patience = shorter;
        }
    }

    boolean contains(String tenant) {
        return releasing.containsKey(tenant);
    }

    boolean isEmpty() {
        return releasing.isEmpty();
    }

    /** Whether every release has written its handoff record and removed its lease. */
    boolean allHandedOff() {
        return releasing.values().stream().allMatch(release -> release.handedOff);
    }

    /** Starts moving {@code tenant} away: the server releases it. */
    void release(String tenant, Migration.Cause cause, String why) {
        Release release = new Release(tenant, Instant.now(), cause);
        releasing.put(tenant, release);
        LOG.info("Tenant {}: releasing it ({})", tenant, why);
        CompletableFuture<HandoverReport> bounded = new CompletableFuture<>();
        Duration given = patience;
        try {
            handover.release(tenant, given).whenComplete((report, failure) -> {
                if (failure != null) {
                    bounded.completeExceptionally(failure);
                } else {
                    bounded.complete(report);
                }
            });
        } catch (RuntimeException e) {
            bounded.completeExceptionally(e);
        }
        bounded.orTimeout(given.plus(RELEASE_GRACE).toMillis(), TimeUnit.MILLISECONDS)
                .whenCompleteAsync((report, failure) -> handedOver(release, report, failure), thread);
    }

    /** Redirects the handed-off tenants whose destination is known now. */
    void redirectDue() {
        for (Release release : List.copyOf(releasing.values())) {
            if (release.handedOff) {
                tryRedirect(release);
            }
        }
    }

    /** Redirects every tenant still here to {@code address}, handed off or not (the member has stopped). */
    void redirectAll(String address) {
        for (Release release : List.copyOf(releasing.values())) {
            redirect(release, address);
        }
    }

    private void handedOver(Release release, HandoverReport report, Throwable failure) {
        String tenant = release.tenant;
        if (failure != null) {
            LOG.warn("Tenant {}: its release failed or did not end ({}); handing it over anyway", tenant,
                    failure.toString());
        } else if (!report.complete()) {
            LOG.warn("Tenant {}: released incompletely ({}); {} sessions paused, {} actors stopped", tenant,
                    report.detail(), report.sessions(), report.actors());
        } else {
            LOG.info("Tenant {} released: {} sessions paused, {} requests answered, {} actors stopped in {} ms",
                    tenant, report.sessions(), report.requests(), report.actors(), report.drained().toMillis());
        }
        try {
            handoffs.set(tenant, new Handoff(owner.localNode(), release.pausedAt, release.cause).encode());
            String holder = leases.get(tenant);
            if (holder != null && owner.isOwnNode(holder)) {
                leases.remove(tenant, holder);
            }
        } catch (RuntimeException e) {
            LOG.warn("Tenant {}: handoff not recorded ({}); its new owner takes it over once this node is gone",
                    tenant, e.toString());
        }
        release.handedOff = true;
        release.redirectBy = Instant.now().plus(handoverTimeout);
        if (releasing.get(tenant) == release) {
            tryRedirect(release);
        }
        owner.handedOff(tenant);
    }

    /** Redirects a handed-off tenant's clients once its destination is known (to "" when not in time). */
    private void tryRedirect(Release release) {
        Phase phase = owner.phase();
        if (phase == Phase.CLOSED) {
            return;
        }
        if (phase == Phase.BELOW_MINIMUM) {
            redirect(release, "");
            return;
        }
        boolean late = Instant.now().isAfter(release.redirectBy);
        Member current = owner.ownerOf(release.tenant);
        if (current == null) {
            if (late && phase == Phase.SERVING) {
                redirect(release, "");
            }
            return;
        }
        if (current.localMember()) {
            if (phase == Phase.SERVING) {
                redirect(release, figures.localClientAddress());
            }
            return;
        }
        String address = figures.clientAddress(current.getUuid());
        if (!address.isEmpty() || late) {
            redirect(release, address);
        }
    }

    private void redirect(Release release, String address) {
        releasing.remove(release.tenant);
        LOG.info("Tenant {}: clients sent to {}", release.tenant, address.isEmpty() ? "the other nodes" : address);
        try {
            handover.redirect(release.tenant, address);
        } catch (RuntimeException e) {
            LOG.warn("Tenant {}: redirect failed: {}", release.tenant, e.toString(), e);
        }
        owner.redirected(release.tenant);
    }

    /** A tenant moving away; the cluster thread's own. */
    private static final class Release {
        final String tenant;
        final Instant pausedAt;
        final Migration.Cause cause;
        boolean handedOff;
        Instant redirectBy = Instant.MAX;

        Release(String tenant, Instant pausedAt, Migration.Cause cause) {
            this.tenant = tenant;
            this.pausedAt = pausedAt;
            this.cause = cause;
        }
    }
}
