package io.troupe.cluster.placement;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
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
import java.util.regex.Pattern;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;

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
 *     ─► served here still until the new owner knows t (its server has loaded t's file: NodeFigures.knows),
 *        at most handoverTimeout / 2; claims of t here meanwhile are LOCAL
 *     ─► TenantHandover.release(t) ─► handoffs.set(t, me|pausedAt|CAUSE) ─► leases.remove(t, me)
 *     ─► once owner(t) is known: TenantHandover.redirect(t, owner's client address)      (TenantReleases)
 *
 *  a claim whose owner has no client address yet (a member just joined, leaving or gone) waits for one,
 *  at most 2 s, rather than send its client round the other nodes
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
 * order, by the component (they wait for the cluster thread, bounded). The {@link TenantHandover} is called
 * on the cluster thread; its release stages complete anywhere and hop back to it.
 */
public final class TenantOwnership implements TenantPlacement {

    /** The name of the cluster thread. */
    public static final String THREAD_NAME = "troupe-cluster";
    /** How often the ownership is reconciled even without events. */
    static final Duration TICK = Duration.ofMillis(500);
    /** Tenant ids: the server's rule, never '@' (the state keys' partition separator). */
    static final Pattern TENANT = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    /** How long {@link #close} waits for the cluster thread, twice at most (it runs inside the 8 s leave). */
    private static final Duration CLOSE_BOUND = Duration.ofMillis(500);
    /** Every how many ticks the leases of the served tenants are checked (2 s). */
    private static final int AUDIT_TICKS = 4;
    /** How long a claim waits for its owner's client address before sending its client to no address. */
    static final Duration ADDRESS_WAIT = Duration.ofSeconds(2);

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
    private volatile State state = State.NEW;

    // the cluster thread's own
    private final TenantReleases releases;
    private final OwnershipEvents events;
    private final Map<String, List<Claim>> waiting = new HashMap<>();
    private final Map<String, Instant> departed = new HashMap<>();
    /** Tenants owned elsewhere now and served here still, until their new owner knows them: since when. */
    private final Map<String, Instant> heldFor = new HashMap<>();
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
        this.lastNode = instance.getCluster().getLocalMember().getUuid().toString();
        ownNodes.add(lastNode);
        this.leases = instance.getMap(ClusterNode.LEASES);
        this.handoffs = instance.getMap(ClusterNode.HANDOFFS);
        this.thread = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread created = new Thread(task, THREAD_NAME);
            created.setDaemon(true);
            return created;
        });
        this.releases = new TenantReleases(handover, figures, leases, handoffs, thread, handoverTimeout,
                new ReleaseOwner());
        this.events = new OwnershipEvents(instance, leases, thread, new EventHandler());
    }

    /**
     * Listens to membership, partition migrations and lease removals, publishes this node's figures, reads
     * the migrations, and starts the 500 ms reconciliation. Waits for the cluster thread (at most 10 s).
     */
    public void start() throws InterruptedException {
        await(thread.submit(() -> {
            events.listen();
            log.start();
            figures.publishKnown();
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
            if (owner != null && served.contains(tenant)) {
                return CompletableFuture.completedFuture(Placement.local()); // here until handed over
            }
            if (owner != null && !owner.localMember()) {
                Placement elsewhere = elsewhere(tenant, owner);
                if (!elsewhere.ownerAddress().isEmpty()) {
                    return CompletableFuture.completedFuture(elsewhere);
                } // else the cluster thread waits for the owner's address
            }
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(Placement.unavailable("the cluster member is not running: "
                    + e.getMessage()));
        }
        Instant made = Instant.now();
        Claim claim = new Claim(tenant, new CompletableFuture<>(), made.plus(handoverTimeout),
                made.plus(ADDRESS_WAIT));
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
        state = State.LEAVING;
        try {
            thread.execute(() -> {
                leaveDone = done;
                releases.shortenPatience(budget.multipliedBy(3).dividedBy(4));
                for (List<Claim> claims : waiting.values()) {
                    claims.forEach(claim -> claim.answer.complete(notRunning(State.LEAVING)));
                }
                waiting.clear();
                List<String> tenants = List.copyOf(served);
                LOG.info("Leaving the cluster: releasing {} tenants {}", tenants.size(), tenants);
                for (String tenant : tenants) {
                    startRelease(tenant, Migration.Cause.LEAVE, "this node is leaving the cluster");
                }
                figures.remember(); // read once demoted to leave: a lite member has no replicated map
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
                releases.redirectAll("");
                for (List<Claim> claims : waiting.values()) {
                    claims.forEach(claim -> claim.answer.complete(notRunning(State.CLOSED)));
                }
                waiting.clear();
                if (leaveDone != null) {
                    leaveDone.complete(null);
                }
                events.unlisten();
            }), CLOSE_BOUND, "close");
        } catch (RejectedExecutionException e) {
            LOG.debug("Cluster thread already stopped");
        } catch (IllegalStateException e) {
            LOG.warn("Cluster: {}; the released tenants not redirected yet keep their clients paused until the "
                    + "server stops", e.getMessage());
        } finally {
            thread.shutdownNow();
            thread.awaitTermination(CLOSE_BOUND.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** Reconciles now, on the cluster thread, and waits for it (at most 5 s): for tests. */
    void reconcileNow() throws InterruptedException {
        await(thread.submit(this::reconcile), Duration.ofSeconds(5), "reconcile");
    }

    private void tick() {
        try {
            ticks++;
            if (state == State.RUNNING) {
                figures.publishKnown();
            }
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
        if (served.contains(tenant)) {
            return Placement.local(); // owned elsewhere now, but served here until handed over
        }
        if (!owner.localMember()) {
            Placement elsewhere = elsewhere(tenant, owner);
            return elsewhere.ownerAddress().isEmpty() && Instant.now().isBefore(claim.addressBy) ? null : elsewhere;
        }
        if (releases.contains(tenant)) {
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
            if (owner == null) {
                continue;
            }
            if (owner.localMember()) {
                heldFor.remove(tenant);
            } else if (state == State.LEAVING || !holdFor(tenant, owner)) {
                startRelease(tenant, state == State.LEAVING ? Migration.Cause.LEAVE : Migration.Cause.JOIN,
                        "node " + owner.getUuid() + " owns it now");
            }
        }
        heldFor.keySet().retainAll(served);
        releases.redirectDue();
    }

    /**
     * Whether {@code tenant}, owned by {@code owner} now, stays here a while longer because {@code owner}'s server
     * does not know it yet (a node that just joined loads the tenants' files after it joined): its clients would
     * be sent to a node that cannot admit them. At most handoverTimeout / 2, then it is handed over anyway.
     */
    private boolean holdFor(String tenant, Member owner) {
        if (figures.knows(owner.getUuid(), tenant)) {
            heldFor.remove(tenant);
            return false;
        }
        Instant now = Instant.now();
        Instant since = heldFor.putIfAbsent(tenant, now);
        if (since == null) {
            LOG.debug("Tenant {}: node {} owns it now; served here until that node knows it", tenant,
                    owner.getUuid());
            return true;
        }
        Duration bound = handoverTimeout.dividedBy(2);
        if (Duration.between(since, now).compareTo(bound) < 0) {
            return true;
        }
        LOG.warn("Tenant {}: node {} owns it now but has not loaded it within {} ms; handing it over anyway",
                tenant, owner.getUuid(), bound.toMillis());
        heldFor.remove(tenant);
        return false;
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
        releases.release(tenant, cause, why);
    }

    private void checkRedirected() {
        if (redirected != null && releases.isEmpty()) {
            redirected.complete(null);
        }
    }

    private void checkLeaveDone() {
        if (leaveDone != null && served.isEmpty() && releases.allHandedOff()) {
            leaveDone.complete(null);
        }
    }

    private TenantReleases.Phase phase() {
        State now = state;
        if (now == State.CLOSED || now == State.NEW) {
            return TenantReleases.Phase.CLOSED;
        }
        if (now == State.LEAVING) {
            return TenantReleases.Phase.LEAVING;
        }
        try {
            return memberCount() >= minimumMembers ? TenantReleases.Phase.SERVING
                    : TenantReleases.Phase.BELOW_MINIMUM;
        } catch (RuntimeException e) {
            return TenantReleases.Phase.LEAVING;
        }
    }

    // ---- cluster facts

    /** The members that own partitions: a leaving member, demoted to a lite member, no longer counts. */
    private int memberCount() {
        int count = 0;
        for (Member member : instance.getCluster().getMembers()) {
            if (!member.isLiteMember()) {
                count++;
            }
        }
        return count;
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
        if (!instance.getCluster().getMembers().contains(owner)) {
            // A member that died is still named by its partitions until Hazelcast reassigns them (a moment):
            // sending clients there would only bounce them back; an empty address makes them wait and retry.
            return Placement.elsewhere("", "tenant " + tenant + " belonged to node " + owner.getUuid()
                    + ", which left; its new owner is being chosen");
        }
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

    /**
     * A claim waiting for its answer: at most until {@code deadline}, and until {@code addressBy} for an owner
     * with no client address.
     */
    private record Claim(String tenant, CompletableFuture<Placement> answer, Instant deadline, Instant addressBy) {
    }

    /** What Hazelcast's events do; on the cluster thread. */
    private final class EventHandler implements OwnershipEvents.Handler {
        @Override
        public void changed() {
            reconcile();
            retryAll();
        }

        @Override
        public void memberRemoved(String node, Instant noticed) {
            departed.put(node, noticed);
            reconcile();
            retryAll();
        }

        @Override
        public void leaseRemoved(String tenant) {
            retry(tenant);
        }
    }

    /** What the releases ask of this ownership; on the cluster thread. */
    private final class ReleaseOwner implements TenantReleases.Owner {
        @Override
        public TenantReleases.Phase phase() {
            return TenantOwnership.this.phase();
        }

        @Override
        public String localNode() {
            return TenantOwnership.this.localNode();
        }

        @Override
        public boolean isOwnNode(String node) {
            return ownNodes.contains(node);
        }

        @Override
        public Member ownerOf(String tenant) {
            return TenantOwnership.this.ownerOf(tenant);
        }

        @Override
        public void handedOff(String tenant) {
            retry(tenant);
            checkLeaveDone();
        }

        @Override
        public void redirected(String tenant) {
            checkRedirected();
            retry(tenant);
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
