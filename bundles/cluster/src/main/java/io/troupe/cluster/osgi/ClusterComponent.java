package io.troupe.cluster.osgi;

import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.osgi.service.metatype.annotations.Designate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.hazelcast.core.HazelcastInstance;

import io.troupe.api.cluster.ClusterView;
import io.troupe.api.cluster.TenantHandover;
import io.troupe.api.cluster.TenantPlacement;
import io.troupe.api.monitor.ServerStats;
import io.troupe.api.monitor.TenantStats;
import io.troupe.api.state.StateStore;
import io.troupe.cluster.engine.ClusterNode;
import io.troupe.cluster.placement.ClusterViewService;
import io.troupe.cluster.placement.MigrationLog;
import io.troupe.cluster.placement.NodeFigures;
import io.troupe.cluster.placement.TenantOwnership;
import io.troupe.cluster.state.ReplicatedStateStore;
import io.troupe.cluster.sync.FolderSync;
import io.troupe.config.ConfigurationSource;

/**
 * The cluster's Declarative Services component: present only with the configuration {@value ClusterSettings#PID}
 * ({@code etc/io.troupe.cluster.cfg}; without it nothing of the cluster runs, not even a thread).
 *
 * <pre>
 *  activate (SCR thread) ── settings refused ──► ERROR per key, no join, no TenantPlacement (server.busy)
 *        └─► thread troupe-cluster-start: ClusterNode.start (joins, or starts alone after at most 10 s)
 *              ─► register the replicated StateStore (ranking 100, troupe.store.replicated=true)
 *              ─► register TenantPlacement, then ClusterView ─► start the folder sync
 *  deactivate (SCR thread, at most 8 s): stop the folder sync, release every tenant here (handoffs, leases
 *        removed), hand the partitions over (the member turns lite; the released tenants are redirected to
 *        their new owners as they appear), unregister ClusterView, TenantPlacement, the replicated store (closed),
 *        shut the member down, redirect what is left to "".
 * </pre>
 *
 * It needs the server's {@link TenantHandover} (static: the server starts before the cluster and stops after
 * it), whose service property {@value #SERVER_ADDRESS_PROPERTY} gives the address clients are sent to when
 * {@code clientAddress} is not configured. It uses the local {@link StateStore} (not its own replicated one)
 * and the server's {@link ServerStats} (sessions and requests per second for the node figures) when present.
 *
 * <p>Every key applies when the node joins: a change while it runs is logged at WARN with the changed keys,
 * and applies at the next start.
 *
 * <p><b>Threading:</b> SCR calls activate, modified, deactivate and the reference methods; the start thread
 * does the slow part. The fields shared by them are changed under this object's lock; deactivate waits for the
 * start thread (bounded) and undoes whatever it did.
 */
@Designate(ocd = ClusterConfiguration.class)
@Component(name = ClusterSettings.PID, configurationPid = ClusterSettings.PID,
        configurationPolicy = ConfigurationPolicy.REQUIRE, service = {}, immediate = true)
public final class ClusterComponent {

    /** The framework property naming the installation directory. */
    static final String HOME_PROPERTY = "troupe.home";
    /** The server's {@link TenantHandover} service property: its bound {@code host:port}. */
    public static final String SERVER_ADDRESS_PROPERTY = "troupe.server.address";
    /** The service property marking our replicated {@link StateStore}. */
    public static final String REPLICATED_PROPERTY = "troupe.store.replicated";
    /** The replicated store's ranking: above the local store's, so the host prefers it. */
    public static final int REPLICATED_RANKING = 100;
    /** The bound of the whole leave. */
    static final Duration LEAVE_BUDGET = Duration.ofSeconds(8);
    /** How long a joining node waits for its server to serve the cluster's tenants before it takes any. */
    static final Duration TENANTS_WAIT = Duration.ofSeconds(5);
    private static final Duration TENANTS_POLL = Duration.ofMillis(100);
    /** The part of it the releases may take. */
    static final Duration RELEASE_BUDGET = Duration.ofSeconds(4);
    /** The part of it handing the partitions over and redirecting the released tenants may take. */
    static final Duration HANDING_BUDGET = Duration.ofSeconds(3);

    private static final Logger LOG = LoggerFactory.getLogger(ClusterComponent.class);

    private TenantHandover handover;
    private Map<String, Object> handoverProperties = Map.of();
    private volatile StateStore localStore;
    private volatile ServerStats serverStats;

    private BundleContext context;
    private ClusterSettings settings;
    private ConfigurationSource source;
    private Thread starter;
    private boolean stopping;
    private ClusterNode node;
    private TenantOwnership ownership;
    private MigrationLog migrations;
    private NodeFigures figures;
    private ServiceRegistration<StateStore> storeRegistration;
    private ServiceRegistration<TenantPlacement> placementRegistration;
    private ServiceRegistration<ClusterView> viewRegistration;
    private ReplicatedStateStore replicatedStore;
    private FolderSync folderSync;
    private Path home;

    @Reference(name = "handover", updated = "updatedHandover")
    void bindHandover(TenantHandover service, Map<String, Object> properties) {
        this.handover = service;
        this.handoverProperties = Map.copyOf(properties);
    }

    /** The server listens elsewhere now (its configuration changed): clients are sent to its new address. */
    synchronized void updatedHandover(TenantHandover service, Map<String, Object> properties) {
        this.handoverProperties = Map.copyOf(properties);
        if (settings != null && figures != null) {
            String address = settings.clientAddressFor(String.valueOf(properties.getOrDefault(SERVER_ADDRESS_PROPERTY,
                    "")));
            if (!address.equals(figures.localClientAddress())) {
                figures.localClientAddress(address);
                LOG.info("Cluster: clients are sent to {} for this node from now on", address);
            }
        }
    }

    void unbindHandover(TenantHandover service) {
        // static: SCR deactivates this component first
    }

    @Reference(name = "localStore", cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY, target = "(!(" + REPLICATED_PROPERTY + "=true))")
    void bindLocalStore(StateStore store) {
        localStore = store;
        warnIfStoreChanged();
    }

    void unbindLocalStore(StateStore store) {
        if (localStore == store) {
            localStore = null;
            warnIfStoreChanged();
        }
    }

    private synchronized void warnIfStoreChanged() {
        if (replicatedStore != null) {
            LOG.warn("Cluster: the local state store changed while the replicated one writes through to the "
                    + "previous one; the new one is used from the next start");
        }
    }

    @Reference(name = "serverStats", cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    void bindServerStats(ServerStats stats) {
        serverStats = stats;
    }

    void unbindServerStats(ServerStats stats) {
        if (serverStats == stats) {
            serverStats = null;
        }
    }

    @Activate
    synchronized void activate(BundleContext context, Map<String, Object> properties) {
        this.context = context;
        this.source = ConfigurationSource.of(ClusterSettings.PID, properties);
        try {
            home = homePath(context.getProperty(HOME_PROPERTY));
            settings = ClusterSettings.parse(properties, home, LOG::warn);
        } catch (InvalidClusterConfigurationException e) {
            e.problems().forEach(problem -> LOG.error("{}", problem));
            LOG.error("{}: the cluster configuration is refused ({} problem{}): this node does not join its "
                    + "cluster and serves no tenant (clients get server.busy) until the file is fixed and Troupe "
                    + "restarted", source, e.problems().size(), e.problems().size() == 1 ? "" : "s");
            return;
        }
        Object serverAddress = handoverProperties.get(SERVER_ADDRESS_PROPERTY);
        String clientAddress = settings.clientAddressFor(serverAddress == null ? "" : serverAddress.toString());
        if (clientAddress.isEmpty()) {
            LOG.warn("{}: no clientAddress configured and the server registered no {}: clients of tenants "
                    + "served here cannot be redirected to this node", source, SERVER_ADDRESS_PROPERTY);
        }
        stopping = false;
        starter = new Thread(() -> join(clientAddress), "troupe-cluster-start");
        starter.start();
    }

    @Modified
    synchronized void modified(Map<String, Object> properties) {
        ConfigurationSource changedSource = ConfigurationSource.of(ClusterSettings.PID, properties);
        if (settings == null) {
            LOG.warn("{}: changed; the cluster configuration applies at the next start (this node did not join: "
                    + "its configuration was refused)", changedSource);
            return;
        }
        Set<String> changed = settings.changedKeys(properties);
        if (!changed.isEmpty()) {
            LOG.warn("{}: {} changed; cluster keys apply at the next start, this node keeps its current values",
                    changedSource, String.join(", ", changed));
        }
    }

    @Deactivate
    void deactivate() throws InterruptedException {
        Instant deadline = Instant.now().plus(LEAVE_BUDGET);
        Thread starting;
        synchronized (this) {
            stopping = true;
            starting = starter;
        }
        if (starting != null) {
            starting.join(Math.max(1, Duration.between(Instant.now(), deadline).toMillis() - 2000));
            if (starting.isAlive()) {
                LOG.warn("The cluster member is still starting; it stops as soon as it has started");
            }
        }
        leave(deadline);
    }

    /** The start thread: joins, then registers the services. */
    private void join(String clientAddress) {
        ClusterNode started = new ClusterNode(settings.nodeOptions(getClass().getClassLoader(), Map.of()));
        HazelcastInstance instance;
        try {
            instance = started.start();
        } catch (RuntimeException e) {
            LOG.error("{}: the cluster member could not start ({}): this node serves no tenant (clients get "
                    + "server.busy) until it is fixed and Troupe restarted", source, e.toString(), e);
            return;
        }
        synchronized (this) {
            node = started;
        }
        TenantOwnership placement = null;
        try {
            ReplicatedStateStore store = replicatedStore(instance);
            NodeFigures figures = new NodeFigures(instance, clientAddress, this::sessions, this::requestsPerSecond,
                    handover::knownTenants);
            MigrationLog log = new MigrationLog(instance);
            placement = new TenantOwnership(instance, handover, figures, log, settings.minimumMembers(),
                    settings.handoverTimeout());
            placement.start();
            ClusterViewService view = new ClusterViewService(instance, settings.clusterName(),
                    started::missingMembers, figures, log, placement);
            FolderSync sync = folderSync(instance);
            if (sync != null) {
                synchronized (this) {
                    if (!stopping) {
                        folderSync = sync;
                        sync.start();
                    }
                }
                awaitClusterTenants(sync);
            }
            boolean late;
            synchronized (this) {
                ownership = placement;
                migrations = log;
                this.figures = figures;
                replicatedStore = store;
                late = stopping;
                if (!late) {
                    storeRegistration = context.registerService(StateStore.class, store,
                            replicatedStoreProperties());
                    placementRegistration = context.registerService(TenantPlacement.class, placement,
                            properties("Troupe tenant placement (cluster " + settings.clusterName() + ")"));
                    viewRegistration = context.registerService(ClusterView.class, view,
                            properties("Troupe cluster view (cluster " + settings.clusterName() + ")"));
                }
            }
            if (late) {
                LOG.info("Cluster: the member started while the component stopped; leaving at once");
                leave(Instant.now().plus(LEAVE_BUDGET));
                return;
            }
            LOG.info("Cluster '{}': this node {} serves its tenants; clients are sent to {}", settings.clusterName(),
                    placement.localNode(), clientAddress);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.error("{}: the cluster services could not start ({}): this node serves no tenant (clients get "
                    + "server.busy)", source, e.toString(), e);
            closeUnregistered(placement);
        }
    }

    /**
     * Before this node takes tenants (the placement service is what lets the server welcome clients): waits,
     * at most {@link #TENANTS_WAIT}, until the server serves every tenant the cluster has a file of, copied
     * here by the folder sync. Otherwise a client that the cluster sends here at once, since the partitions of
     * some tenants moved to this node as it joined, would be refused as an unknown tenant.
     */
    private void awaitClusterTenants(FolderSync sync) throws InterruptedException {
        Set<String> expected;
        try {
            expected = sync.clusterTenants();
        } catch (RuntimeException e) {
            LOG.warn("Cluster: the cluster's tenants could not be listed ({}); not waiting for them", e.toString());
            return;
        }
        long deadline = System.nanoTime() + TENANTS_WAIT.toNanos();
        Set<String> missing = missingTenants(expected);
        while (!missing.isEmpty() && System.nanoTime() < deadline && !isStopping()) {
            Thread.sleep(TENANTS_POLL.toMillis()); // the start thread of a joining node; nothing else waits on it
            missing = missingTenants(expected);
        }
        if (!missing.isEmpty()) {
            LOG.warn("Cluster: the server does not serve the cluster's tenants {} {} s after joining; their clients"
                    + " may be refused here until their files are loaded", missing, TENANTS_WAIT.toSeconds());
        }
    }

    private synchronized boolean isStopping() {
        return stopping;
    }

    /** The tenants of {@code expected} the server does not serve (all of them when its statistics are away). */
    private Set<String> missingTenants(Set<String> expected) {
        ServerStats stats = serverStats;
        Set<String> missing = new TreeSet<>(expected);
        if (stats != null) {
            stats.tenants().forEach(tenant -> missing.remove(tenant.tenant()));
        }
        return missing;
    }

    /** Closes an ownership that was never handed to the component's fields. */
    private void closeUnregistered(TenantOwnership placement) {
        synchronized (this) {
            if (placement == null || ownership == placement) {
                return;
            }
        }
        try {
            placement.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The replicated {@link StateStore} over {@code troupe.state}, written through to the local store (which
     * alone keeps tenant ""), its map seeded with the local store's snapshots of the server's tenants (for each
     * key the newest wins: after a restart of the whole cluster the latest state is kept).
     */
    private ReplicatedStateStore replicatedStore(HazelcastInstance instance) {
        StateStore local = localStore;
        if (local == null) {
            LOG.warn("Cluster: no local state store: actors of no tenant keep no state, and a restart of the whole "
                    + "cluster loses the replicated states");
        }
        ReplicatedStateStore store = new ReplicatedStateStore(instance, local);
        ServerStats stats = serverStats;
        if (local != null && stats != null) {
            List<String> tenants = stats.tenants().stream().map(TenantStats::tenant).toList();
            try {
                store.seedFrom(local, tenants);
            } catch (IOException | RuntimeException e) {
                LOG.warn("Cluster: the local store's states could not be copied into the cluster ({}); the "
                        + "cluster's copies are used as they are", e.toString());
            }
        }
        return store;
    }

    /** The sync of deploy/ and the tenant files, when configured and the installation is known. */
    private FolderSync folderSync(HazelcastInstance instance) {
        if (!settings.syncDeploy() && !settings.syncTenants()) {
            return null;
        }
        if (home == null) {
            LOG.warn("Cluster: {} is not set: deploy/ and the tenant files are not synchronised", HOME_PROPERTY);
            return null;
        }
        return new FolderSync(instance, home, settings.syncDeploy(), settings.syncTenants());
    }

    /** The properties of the replicated store's registration. */
    static Dictionary<String, Object> replicatedStoreProperties() {
        Dictionary<String, Object> properties = new Hashtable<>();
        properties.put(Constants.SERVICE_DESCRIPTION, "Troupe replicated state store (Hazelcast troupe.state)");
        properties.put(Constants.SERVICE_RANKING, REPLICATED_RANKING);
        properties.put(REPLICATED_PROPERTY, Boolean.TRUE);
        return properties;
    }

    /**
     * The graceful leave, bounded by {@code deadline}; then the member stops. Takes what the start thread
     * made, so that of deactivate and a start thread that ended late, one leaves and the other finds nothing.
     */
    private void leave(Instant deadline) throws InterruptedException {
        TenantOwnership placement;
        ClusterNode running;
        MigrationLog log;
        ServiceRegistration<?> view;
        ServiceRegistration<?> place;
        ServiceRegistration<?> store;
        FolderSync sync;
        ReplicatedStateStore replicated;
        synchronized (this) {
            placement = ownership;
            running = node;
            log = migrations;
            view = viewRegistration;
            place = placementRegistration;
            store = storeRegistration;
            ownership = null;
            node = null;
            migrations = null;
            figures = null;
            viewRegistration = null;
            placementRegistration = null;
            storeRegistration = null;
            sync = folderSync;
            folderSync = null;
            replicated = replicatedStore;
            replicatedStore = null;
        }
        if (sync != null) {
            sync.close();
        }
        if (placement != null) {
            placement.leave(min(RELEASE_BUDGET, Duration.between(Instant.now(), deadline).minusSeconds(3)));
        }
        if (running != null && placement != null) {
            Duration handing = min(HANDING_BUDGET, Duration.between(Instant.now(), deadline).minusSeconds(2));
            Instant handed = Instant.now().plus(handing);
            if (running.migrateAway(handing)) {
                placement.awaitRedirected(min(handing, Duration.between(Instant.now(), handed)));
            }
        }
        if (log != null) {
            log.stop();
        }
        unregister(view);
        unregister(place);
        unregister(store);
        if (replicated != null) {
            replicated.close();
        }
        if (running != null) {
            Duration left = Duration.between(Instant.now(), deadline).minusSeconds(1);
            boolean graceful = running.shutdown(left.isNegative() ? Duration.ofMillis(1) : left);
            LOG.info("Cluster '{}': this node left {}", settings.clusterName(),
                    graceful ? "gracefully" : "abruptly (terminated)");
        }
        if (placement != null) {
            placement.close();
        }
    }

    private static void unregister(ServiceRegistration<?> registration) {
        if (registration != null) {
            try {
                registration.unregister();
            } catch (IllegalStateException e) {
                LOG.debug("Already unregistered: {}", e.toString());
            }
        }
    }

    private int sessions() {
        ServerStats stats = serverStats;
        if (stats == null) {
            return -1;
        }
        return stats.tenants().stream().mapToInt(TenantStats::connections).sum();
    }

    private double requestsPerSecond() {
        ServerStats stats = serverStats;
        if (stats == null) {
            return -1;
        }
        List<TenantStats> tenants = stats.tenants();
        return tenants.stream().mapToDouble(TenantStats::requestsPerSecond).sum();
    }

    private static Dictionary<String, Object> properties(String description) {
        Dictionary<String, Object> properties = new Hashtable<>();
        properties.put(Constants.SERVICE_DESCRIPTION, description);
        return properties;
    }

    private static Duration min(Duration a, Duration b) {
        Duration smaller = a.compareTo(b) <= 0 ? a : b;
        return smaller.isNegative() ? Duration.ofMillis(1) : smaller;
    }

    private static Path homePath(String home) {
        if (home == null || home.isBlank()) {
            return null;
        }
        try {
            return Path.of(home.strip());
        } catch (InvalidPathException e) {
            LOG.warn("{}={} is not a path: secretFile is taken relative to the working directory", HOME_PROPERTY,
                    home);
            return null;
        }
    }
}
