package io.troupe.cluster.placement;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.map.listener.EntryRemovedListener;
import com.hazelcast.partition.MigrationListener;
import com.hazelcast.partition.MigrationState;
import com.hazelcast.partition.ReplicaMigrationEvent;

import io.troupe.api.cluster.HandoverReport;
import io.troupe.api.cluster.Migration;
import io.troupe.api.cluster.Placement;
import io.troupe.api.cluster.TenantHandover;
import io.troupe.api.cluster.TenantPlacement;
import io.troupe.cluster.engine.ClusterNode;

/**
 * Which node serves each tenant: the owner of the tenant's Hazelcast partition, once the previous owner
 * has handed it over (or is gone). Nothing here decides who is alive: Hazelcast's membership and partition
 * table do.
 *
 * <pre>
 *  claim(t) ── below minimumMembers ─────────────► UNAVAILABLE
 *     │      ── owner(t) is another node ─────────► ELSEWHERE(its client address, from troupe.nodes)
 *     │      ── owner(t) is here, t served ───────► LOCAL (a completed stage)
 *     └─ cluster thread: leases.putIfAbsent(t, me)
 *            absent / me ──────────────► serve t; take the handoff record ─► LOCAL
 *            a departed member ────────► leases.replace(t, dead, me) ─► LOCAL, migration CRASH
 *            a live member (releasing) ► wait for its lease removal, at most handoverTimeout ─► UNAVAILABLE
 *
 *  reconcile (membership and migration events, every 500 ms): t served here, owner(t) another node
 *     ─► TenantHandover.release(t) ─► handoffs.set(t, me|pausedAt|CAUSE) ─► leases.remove(t, me)
 *     ─► once owner(t) is known: TenantHandover.redirect(t, owner's client address)
 *
 *  leave: release every tenant served here (in parallel); the member hands its partitions over (the
 *  component's ClusterNode.migrateAway) and the released tenants are redirected as their new owners appear
 *  (awaitRedirected); close(), once the member has stopped, redirects what is left to "".
 * </pre>
 *
 * <p><b>Threading:</b> {@link #claim} and {@link #localNode} from any thread, never blocking: everything
 * that touches Hazelcast or the ownership state runs on the one scheduled thread {@value #THREAD_NAME},
 * which completes the claims' stages. Hazelcast's listeners only queue work on that thread.
 * {@link #start}, {@link #leave}, {@link #awaitRedirected} and {@link #close} are called once each, in that
 * order, by the component (they wait for the cluster thread, bounded). The {@link TenantHandover} is called on the cluster thread;
 * its release stages complete anywhere and hop back to it.
 */
public final class TenantOwnership implements TenantPlacement {

    /** The name of the cluster thread. */
    public static final String THREAD_NAME = "troupe-cluster";
    /** How often the ownership is reconciled even without events. */
    static final Duration TICK = Duration.ofMillis(500);
    /** Tenant ids: the server's rule, never '@' (the state keys' partition separator). */
    static final Pattern TENANT = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    /** Every how many ticks the leases of the served tenants are checked (2 s). */
    private static final int AUDIT_TICKS = 4;
    /** How much longer than its patience a release may take before it is handed over anyway. */
    private static final Duration RELEASE_GRACE = Duration.ofSeconds(5);

    private static final Logger LOG = LoggerFactory.getLogger(TenantOwnership.class);

    private enum State { NEW, RUNNING, LEAVING, CLOSED }

    private final HazelcastInstance instance;
    private final TenantHandover handover;
    private final NodeFigures figures;
    private final MigrationLog log;
    private final int minimumMembers;
    private final Duration handoverTimeout;
    /** The member uuids this node has had (Hazelcast gives a member a new one when it merges after a split). */
    private final Set<String> ownNodes = ConcurrentHashMap.newKeySet();
    private volatile String lastNode;
    private final IMap<String, String> leases;
    private final IMap<String, String> handoffs;
    private final ScheduledExecutorService thread;
    private final Set<String> served = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean reconcileQueued = new AtomicBoolean();
    private volatile State state = State.NEW;
    private volatile Duration releasePatience;

    // the cluster thread's own
    private final Map<String, Release> releasing = new LinkedHashMap<>();
    private final Map<String, List<Claim>> waiting = new HashMap<>();
    private final Map<String, Instant> departed = new HashMap<>();
    private final List<Runnable> unlisten = new ArrayList<>();
    private CompletableFuture<Void> leaveDone;
    private CompletableFuture<Void> redirected;
    private long ticks;

    /**
     * @param minimumMembers  below this many members no tenant is served
     * @param handoverTimeout the patience of a release and the bound of a claim waiting for one
     */
    public TenantOwnership(HazelcastInstance instance, TenantHandover handover, NodeFigures figures,
            MigrationLog log, int minimumMembers, Duration handoverTimeout) {
        this.instance = Objects.requireNonNull(instance, "instance");
        this.handover = Objects.requireNonNull(handover, "handover");
        this.figures = Objects.requireNonNull(figures, "figures");
        this.log = Objects.requireNonNull(log, "log");
        this.minimumMembers = minimumMembers;
        this.handoverTimeout = Objects.requireNonNull(handoverTimeout, "handoverTimeout");
        this.releasePatience = handoverTimeout;
        this.lastNode = instance.getCluster().getLocalMember().getUuid().toString();
        ownNodes.add(lastNode);
        this.leases = instance.getMap(ClusterNode.LEASES);
        this.handoffs = instance.getMap(ClusterNode.HANDOFFS);
        this.thread = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread created = new Thread(task, THREAD_NAME);
            created.setDaemon(true);
            return created;
        });
    }

    /**
     * Listens to membership, partition migrations and lease removals, publishes this node's figures, reads
     * the migrations, and starts the 500 ms reconciliation. Waits for the cluster thread (at most 10 s).
     */
    public void start() throws InterruptedException {
        await(thread.submit(() -> {
            listen();
            log.start();
            figures.publish(servedTenants());
            state = State.RUNNING;
        }), Duration.ofSeconds(10), "start");
        thread.scheduleWithFixedDelay(this::tick, TICK.toMillis(), TICK.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public String localNode() {
        try {
            String node = instance.getCluster().getLocalMember().getUuid().toString();
            if (!node.equals(lastNode)) {
                ownNodes.add(node);
                lastNode = node;
            }
            return node;
        } catch (RuntimeException e) {
            return lastNode;
        }
    }

    /** The tenants this node serves now (claimed and not released), sorted. */
    public Set<String> servedTenants() {
        return new TreeSet<>(served);
    }

    @Override
    public CompletionStage<Placement> claim(String tenant) {
        if (tenant == null || !TENANT.matcher(tenant).matches()) {
            return CompletableFuture.completedFuture(Placement.unavailable("'" + tenant + "' is not a tenant id"));
        }
        State now = state;
        if (now != State.RUNNING) {
            return CompletableFuture.completedFuture(notRunning(now));
        }
        try {
            if (memberCount() < minimumMembers) {
                return CompletableFuture.completedFuture(belowMinimum());
            }
            Member owner = ownerOf(tenant);
            if (owner != null && !owner.localMember()) {
                return CompletableFuture.completedFuture(elsewhere(tenant, owner));
            }
            if (owner != null && served.contains(tenant)) {
                return CompletableFuture.completedFuture(Placement.local());
            }
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(Placement.unavailable("the cluster member is not running: "
                    + e.getMessage()));
        }
        Claim claim = new Claim(tenant, new CompletableFuture<>(), Instant.now().plus(handoverTimeout));
        try {
            thread.execute(() -> attempt(claim));
        } catch (RejectedExecutionException e) {
            claim.answer.complete(notRunning(State.CLOSED));
        }
        return claim.answer;
    }

    /**
     * Releases every tenant served here (in parallel, each with its handoff record and its lease removed),
     * withdraws this node's figures, and answers claims from now on with ELSEWHERE {@code ""}. The
     * released tenants are redirected as their new owners appear, while the engine shuts down.
     *
     * @param budget how long to wait for the releases; three quarters of it is the patience they are given,
     *               when shorter than handoverTimeout
     * @return whether every release ended within the budget
     */
    public boolean leave(Duration budget) throws InterruptedException {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Duration patience = budget.multipliedBy(3).dividedBy(4);
        if (patience.compareTo(releasePatience) < 0) {
            releasePatience = patience;
        }
        state = State.LEAVING;
        try {
            thread.execute(() -> {
                leaveDone = done;
                for (List<Claim> claims : waiting.values()) {
                    claims.forEach(claim -> claim.answer.complete(notRunning(State.LEAVING)));
                }
                waiting.clear();
                List<String> tenants = List.copyOf(served);
                LOG.info("Leaving the cluster: releasing {} tenants {}", tenants.size(), tenants);
                for (String tenant : tenants) {
                    startRelease(tenant, Migration.Cause.LEAVE, "this node is leaving the cluster");
                }
                try {
                    figures.remove();
                } catch (RuntimeException e) {
                    LOG.debug("Figures not withdrawn: {}", e.toString());
                }
                checkLeaveDone();
            });
        } catch (RejectedExecutionException e) {
            return false;
        }
        try {
            done.get(Math.max(1, budget.toMillis()), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            LOG.warn("Leaving the cluster: releases still running after {} ms; the engine stops anyway",
                    budget.toMillis());
            return false;
        } catch (ExecutionException e) {
            return false;
        }
    }

    /**
     * Waits (at most {@code bound}) until every tenant released by {@link #leave} has been redirected to its new
     * owner, which the cluster thread does as the partition table names them.
     *
     * @return whether every one was redirected within the bound
     */
    public boolean awaitRedirected(Duration bound) throws InterruptedException {
        CompletableFuture<Void> done = new CompletableFuture<>();
        try {
            thread.execute(() -> {
                redirected = done;
                reconcile();
                checkRedirected();
            });
            done.get(Math.max(1, bound.toMillis()), TimeUnit.MILLISECONDS);
            return true;
        } catch (RejectedExecutionException | ExecutionException | TimeoutException e) {
            return false;
        }
    }

    /**
     * Ends: redirects the released tenants not redirected yet to {@code ""} (their clients try the other
     * nodes they know), answers waiting claims, stops listening and stops the cluster thread.
     */
    public void close() throws InterruptedException {
        state = State.CLOSED;
        try {
            await(thread.submit(() -> {
                for (Release release : List.copyOf(releasing.values())) {
                    redirect(release, "");
                }
                for (List<Claim> claims : waiting.values()) {
                    claims.forEach(claim -> claim.answer.complete(notRunning(State.CLOSED)));
                }
                waiting.clear();
                if (leaveDone != null) {
                    leaveDone.complete(null);
                }
                for (Runnable remove : unlisten) {
                    try {
                        remove.run();
                    } catch (RuntimeException e) {
                        LOG.debug("Listener not removed (the member has stopped): {}", e.toString());
                    }
                }
                unlisten.clear();
            }), Duration.ofSeconds(2), "close");
        } catch (RejectedExecutionException e) {
            LOG.debug("Cluster thread already stopped");
        } finally {
            thread.shutdownNow();
            thread.awaitTermination(2, TimeUnit.SECONDS);
        }
    }

    private void listen() {
        UUID membership = instance.getCluster().addMembershipListener(new MembershipListener() {
            @Override
            public void memberAdded(MembershipEvent event) {
                queueReconcile();
            }

            @Override
            public void memberRemoved(MembershipEvent event) {
                Instant noticed = Instant.now();
                String node = event.getMember().getUuid().toString();
                onClusterThread(() -> {
                    departed.put(node, noticed);
                    reconcile();
                    retryAll();
                });
            }
        });
        unlisten.add(() -> instance.getCluster().removeMembershipListener(membership));
        UUID migrations = instance.getPartitionService().addMigrationListener(new MigrationListener() {
            @Override
            public void migrationStarted(MigrationState state) {
            }

            @Override
            public void migrationFinished(MigrationState state) {
                queueReconcile();
            }

            @Override
            public void replicaMigrationCompleted(ReplicaMigrationEvent event) {
                queueReconcile();
            }

            @Override
            public void replicaMigrationFailed(ReplicaMigrationEvent event) {
                queueReconcile();
            }
        });
        unlisten.add(() -> instance.getPartitionService().removeMigrationListener(migrations));
        UUID removals = leases.addEntryListener(
                (EntryRemovedListener<String, String>) event -> onClusterThread(() -> retry(event.getKey())), false);
        unlisten.add(() -> leases.removeEntryListener(removals));
    }

    private void onClusterThread(Runnable task) {
        try {
            thread.execute(() -> {
                try {
                    task.run();
                } catch (RuntimeException e) {
                    failed(e);
                }
            });
        } catch (RejectedExecutionException e) {
            LOG.debug("Cluster thread stopped: event dropped");
        }
    }

    private void queueReconcile() {
        if (reconcileQueued.compareAndSet(false, true)) {
            onClusterThread(() -> {
                reconcileQueued.set(false);
                reconcile();
                retryAll();
            });
        }
    }

    private void tick() {
        try {
            ticks++;
            reconcile();
            retryAll();
            if (ticks % 2 == 0 && state == State.RUNNING) {
                figures.publish(servedTenants());
                log.refresh();
            }
            if (ticks % AUDIT_TICKS == 0 && state == State.RUNNING) {
                auditLeases();
            }
        } catch (RuntimeException e) {
            failed(e);
        }
    }

    private void failed(RuntimeException e) {
        if (instance.getLifecycleService().isRunning()) {
            LOG.warn("Cluster thread: {}", e.toString(), e);
        } else {
            LOG.debug("Cluster thread, member stopped: {}", e.toString());
        }
    }

    // ---- claims

    private void attempt(Claim claim) {
        if (claim.answer.isDone()) {
            return;
        }
        Placement decided;
        try {
            decided = decide(claim);
        } catch (RuntimeException e) {
            failed(e);
            decided = expired(claim) ? Placement.unavailable("tenant " + claim.tenant + " cannot be claimed: "
                    + e.getMessage()) : null;
        }
        if (decided != null) {
            claim.answer.complete(decided);
        } else {
            waiting.computeIfAbsent(claim.tenant, key -> new ArrayList<>()).add(claim);
        }
    }

    /** The answer to {@code claim} now, or null to wait. */
    private Placement decide(Claim claim) {
        String tenant = claim.tenant;
        if (state != State.RUNNING) {
            return notRunning(state);
        }
        if (memberCount() < minimumMembers) {
            return belowMinimum();
        }
        Member owner = ownerOf(tenant);
        if (owner == null) {
            return expired(claim) ? Placement.unavailable("the cluster has not settled the owner of tenant "
                    + tenant + " within " + handoverTimeout.toSeconds() + " s") : null;
        }
        if (!owner.localMember()) {
            return elsewhere(tenant, owner);
        }
        if (served.contains(tenant)) {
            return Placement.local();
        }
        if (releasing.containsKey(tenant)) {
            return expired(claim) ? Placement.unavailable("tenant " + tenant + " is still being released here")
                    : null;
        }
        String me = localNode();
        String holder = leases.putIfAbsent(tenant, me);
        if (holder == null || holder.equals(me)) {
            takeOver(tenant, null);
            return Placement.local();
        }
        if (!isMember(holder)) {
            if (leases.replace(tenant, holder, me)) {
                takeOver(tenant, ownNodes.contains(holder) ? null : holder);
                return Placement.local();
            }
            return null;
        }
        return expired(claim) ? Placement.unavailable("node " + holder + " has not handed tenant " + tenant
                + " over within " + handoverTimeout.toSeconds() + " s") : null;
    }

    /** Serves {@code tenant} from now on; records its migration from the handoff record or the crash. */
    private void takeOver(String tenant, String departedHolder) {
        served.add(tenant);
        String record = null;
        try {
            record = handoffs.remove(tenant);
        } catch (RuntimeException e) {
            LOG.warn("Tenant {}: its handoff record could not be read ({}); its pause is not measured", tenant,
                    e.toString());
        }
        Handoff handoff = null;
        if (record != null) {
            try {
                handoff = Handoff.decode(record);
            } catch (IllegalArgumentException e) {
                LOG.warn("Tenant {}: {}", tenant, e.getMessage());
            }
        }
        Instant now = Instant.now();
        Migration migration = null;
        if (departedHolder != null) {
            Instant started = departed.getOrDefault(departedHolder, now);
            if (handoff != null && handoff.pausedAt().isBefore(started)) {
                started = handoff.pausedAt();
            }
            migration = new Migration(tenant, departedHolder, localNode(), Migration.Cause.CRASH, started,
                    nonNegative(Duration.between(started, now)), true);
        } else if (handoff != null && !ownNodes.contains(handoff.from())) {
            migration = new Migration(tenant, handoff.from(), localNode(), handoff.cause(), handoff.pausedAt(),
                    nonNegative(Duration.between(handoff.pausedAt(), now)), true);
        }
        if (migration != null) {
            log.record(migration);
            LOG.info("Tenant {} taken over from node {} ({}): unserved for {} ms", tenant, migration.from(),
                    migration.cause(), migration.pause().toMillis());
        } else {
            LOG.debug("Tenant {} served here", tenant);
        }
    }

    private void retry(String tenant) {
        List<Claim> claims = waiting.remove(tenant);
        if (claims != null) {
            claims.forEach(this::attempt);
        }
    }

    private void retryAll() {
        for (String tenant : List.copyOf(waiting.keySet())) {
            retry(tenant);
        }
    }

    // ---- releases

    private void reconcile() {
        if (state == State.NEW || state == State.CLOSED) {
            return;
        }
        boolean quorum;
        try {
            quorum = memberCount() >= minimumMembers;
        } catch (RuntimeException e) {
            return;
        }
        for (String tenant : List.copyOf(served)) {
            if (!quorum) {
                startRelease(tenant, Migration.Cause.LEAVE, "the cluster has fewer than " + minimumMembers
                        + " members");
                continue;
            }
            Member owner = ownerOf(tenant);
            if (owner != null && !owner.localMember()) {
                startRelease(tenant, state == State.LEAVING ? Migration.Cause.LEAVE : Migration.Cause.JOIN,
                        "node " + owner.getUuid() + " owns it now");
            }
        }
        for (Release release : List.copyOf(releasing.values())) {
            if (release.handedOff) {
                tryRedirect(release, quorum);
            }
        }
    }

    /**
     * Checks that this node still holds the lease of each tenant it serves and owns. It can lose one only when
     * the cluster healed a split (both sides served the tenant; the merge kept the other side's lease, or gave
     * this member a new uuid): then it takes its lease back from a departed or former self, or stops serving.
     */
    private void auditLeases() {
        String me = localNode();
        for (String tenant : List.copyOf(served)) {
            Member owner = ownerOf(tenant);
            if (owner == null || !owner.localMember()) {
                continue;
            }
            String holder = leases.get(tenant);
            if (me.equals(holder)) {
                continue;
            }
            if (holder == null) {
                holder = leases.putIfAbsent(tenant, me);
                if (holder == null || holder.equals(me)) {
                    continue;
                }
            }
            if ((ownNodes.contains(holder) || !isMember(holder)) && leases.replace(tenant, holder, me)) {
                continue;
            }
            LOG.warn("Tenant {}: its lease is held by node {} (the cluster healed a split?): this node stops "
                    + "serving it", tenant, holder);
            startRelease(tenant, Migration.Cause.JOIN, "its lease is held by node " + holder);
        }
    }

    private void startRelease(String tenant, Migration.Cause cause, String why) {
        served.remove(tenant);
        Release release = new Release(tenant, Instant.now(), cause);
        releasing.put(tenant, release);
        LOG.info("Tenant {}: releasing it ({})", tenant, why);
        CompletableFuture<HandoverReport> bounded = new CompletableFuture<>();
        Duration patience = releasePatience;
        try {
            handover.release(tenant, patience).whenComplete((report, failure) -> {
                if (failure != null) {
                    bounded.completeExceptionally(failure);
                } else {
                    bounded.complete(report);
                }
            });
        } catch (RuntimeException e) {
            bounded.completeExceptionally(e);
        }
        bounded.orTimeout(patience.plus(RELEASE_GRACE).toMillis(), TimeUnit.MILLISECONDS)
                .whenCompleteAsync((report, failure) -> handedOver(release, report, failure), thread);
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
            handoffs.set(tenant, new Handoff(localNode(), release.pausedAt, release.cause).encode());
            String holder = leases.get(tenant);
            if (holder != null && ownNodes.contains(holder)) {
                leases.remove(tenant, holder);
            }
        } catch (RuntimeException e) {
            LOG.warn("Tenant {}: handoff not recorded ({}); its new owner takes it over once this node is gone",
                    tenant, e.toString());
        }
        release.handedOff = true;
        release.redirectBy = Instant.now().plus(handoverTimeout);
        if (state != State.CLOSED) {
            boolean quorum;
            try {
                quorum = memberCount() >= minimumMembers;
            } catch (RuntimeException e) {
                quorum = false;
            }
            tryRedirect(release, quorum);
        }
        retry(tenant);
        checkLeaveDone();
    }

    /** Redirects a handed-off tenant's clients once its owner is known (to "" when it is not in time). */
    private void tryRedirect(Release release, boolean quorum) {
        boolean late = Instant.now().isAfter(release.redirectBy);
        if (state == State.RUNNING && !quorum) {
            redirect(release, "");
            return;
        }
        Member owner = ownerOf(release.tenant);
        if (owner == null) {
            if (late && state == State.RUNNING) {
                redirect(release, "");
            }
            return;
        }
        if (owner.localMember()) {
            if (state == State.RUNNING) {
                redirect(release, figures.localClientAddress());
            }
            return;
        }
        String address = figures.clientAddress(owner.getUuid());
        if (!address.isEmpty() || late) {
            redirect(release, address);
        }
    }

    private void redirect(Release release, String address) {
        releasing.remove(release.tenant);
        checkRedirected();
        LOG.info("Tenant {}: clients sent to {}", release.tenant, address.isEmpty() ? "the other nodes" : address);
        try {
            handover.redirect(release.tenant, address);
        } catch (RuntimeException e) {
            LOG.warn("Tenant {}: redirect failed: {}", release.tenant, e.toString(), e);
        }
    }

    private void checkRedirected() {
        if (redirected != null && releasing.isEmpty()) {
            redirected.complete(null);
        }
    }

    private void checkLeaveDone() {
        if (leaveDone != null && served.isEmpty()
                && releasing.values().stream().allMatch(release -> release.handedOff)) {
            leaveDone.complete(null);
        }
    }

    // ---- cluster facts

    private int memberCount() {
        return instance.getCluster().getMembers().size();
    }

    private boolean isMember(String node) {
        for (Member member : instance.getCluster().getMembers()) {
            if (member.getUuid().toString().equals(node)) {
                return true;
            }
        }
        return false;
    }

    private Member ownerOf(String tenant) {
        try {
            return instance.getPartitionService().getPartition(tenant).getOwner();
        } catch (RuntimeException e) {
            return null;
        }
    }

    private Placement elsewhere(String tenant, Member owner) {
        return Placement.elsewhere(figures.clientAddress(owner.getUuid()), "tenant " + tenant
                + " is served by node " + owner.getUuid());
    }

    private Placement belowMinimum() {
        return Placement.unavailable("the cluster has fewer than " + minimumMembers + " members");
    }

    private static Placement notRunning(State state) {
        return state == State.NEW ? Placement.unavailable("this node has not joined its cluster yet")
                : Placement.elsewhere("", "this node is leaving the cluster");
    }

    private static boolean expired(Claim claim) {
        return Instant.now().isAfter(claim.deadline);
    }

    private static Duration nonNegative(Duration duration) {
        return duration.isNegative() ? Duration.ZERO : duration;
    }

    /** A claim waiting for its answer. */
    private record Claim(String tenant, CompletableFuture<Placement> answer, Instant deadline) {
    }

    /** A tenant moving away from this node; the cluster thread's own. */
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

    /** Waits for a task of the cluster thread. */
    private static void await(Future<?> task, Duration bound, String what) throws InterruptedException {
        try {
            task.get(bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("the cluster thread failed to " + what + ": " + e.getCause(),
                    e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("the cluster thread did not " + what + " within " + bound.toMillis()
                    + " ms");
        }
    }
}
