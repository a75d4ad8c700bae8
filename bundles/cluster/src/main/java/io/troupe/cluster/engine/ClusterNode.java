package io.troupe.cluster.engine;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.MapConfig;
import com.hazelcast.config.MergePolicyConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.config.RingbufferConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.partition.strategy.StringPartitioningStrategy;
import com.hazelcast.spi.merge.LatestUpdateMergePolicy;
import com.hazelcast.spi.merge.PutIfAbsentMergePolicy;

/**
 * This node's embedded Hazelcast member: builds its {@link Config} from {@link NodeOptions}, starts it,
 * watches which configured members are missing, and stops it.
 *
 * <pre>
 *  NodeOptions ──config()──► Config: derived cluster name, TCP-IP join (members), multicast and
 *                            auto-detection off, port without auto-increment, bind/public address,
 *                            troupe.* structures (backups, merge policies), properties below
 *  start() ──► Hazelcast.newHazelcastInstance ──► INFO: cluster, members, this node
 *                  └─ membership events ──► missing configured members: one ERROR per change of the set
 *  shutdown(bound) ──► graceful shutdown (partitions migrate away), terminate when over the bound
 * </pre>
 *
 * The structures' names are a contract between the cluster's packages: {@value #LEASES},
 * {@value #HANDOFFS}, {@value #NODES}, {@value #KNOWN}, {@value #MIGRATIONS}, {@value #STATE}, {@value #FILES},
 * {@value #DEPLOYS}. String keys are partitioned by the text after their {@code '@'} (Hazelcast's
 * {@code StringPartitioningStrategy}, member-wide), so that the states of a tenant ({@value #STATE} keys
 * {@code ...@tenant}) live in the tenant's partition.
 *
 * <p><b>Threading:</b> {@link #start} and {@link #shutdown} block (on the caller's thread: the component's
 * start thread and SCR's deactivating thread) and are called once each, in that order.
 * {@link #instance}, {@link #missingMembers} and {@link #options} from any thread. Membership events
 * arrive on Hazelcast's event threads and only recompute the missing members, under this object's lock.
 */
public final class ClusterNode {

    /** IMap tenant -> uuid of the member serving it. */
    public static final String LEASES = "troupe.leases";
    /** IMap tenant -> {@code fromUuid|pausedAtEpochMillis|CAUSE}. */
    public static final String HANDOFFS = "troupe.handoffs";
    /** ReplicatedMap member uuid -> figures. */
    public static final String NODES = "troupe.nodes";
    /** ReplicatedMap member uuid -> the tenants its server knows, comma-separated, sorted. */
    public static final String KNOWN = "troupe.known";
    /** Ringbuffer of finished migrations. */
    public static final String MIGRATIONS = "troupe.migrations";
    /** The capacity of {@value #MIGRATIONS}. */
    public static final int MIGRATIONS_CAPACITY = 100;
    /** IMap of durable actor state. */
    public static final String STATE = "troupe.state";
    /** IMap of synchronised files. */
    public static final String FILES = "troupe.files";
    /** IMap of synchronised deploys. */
    public static final String DEPLOYS = "troupe.deploys";
    /** The Hazelcast property naming the member-wide partitioning strategy. */
    static final String PARTITIONING_PROPERTY = "hazelcast.partitioning.strategy.class";
    /** Bound of a member's join: a node whose members are unreachable starts alone after it. */
    static final int MAX_JOIN_SECONDS = 10;
    /** How often {@link #migrateAway} looks at the partition table. */
    private static final long MIGRATION_POLL_MILLIS = 50;
    /** Bound of the engine's graceful shutdown (the component bounds the whole leave more tightly). */
    static final int GRACEFUL_SHUTDOWN_SECONDS = 7;

    private static final Logger LOG = LoggerFactory.getLogger(ClusterNode.class);

    private final NodeOptions options;
    private final String engineClusterName;
    private volatile HazelcastInstance instance;
    private volatile List<String> missing = List.of();
    private Map<MemberAddress, Set<String>> resolvedMembers = Map.of();
    private List<String> logged;

    public ClusterNode(NodeOptions options) {
        this.options = Objects.requireNonNull(options, "options");
        this.engineClusterName = DerivedClusterName.of(options.clusterName(), options.secret());
    }

    /** The Hazelcast configuration of {@code options}. */
    static Config config(NodeOptions options) {
        Config config = new Config();
        config.setClusterName(DerivedClusterName.of(options.clusterName(), options.secret()));
        config.setInstanceName("troupe-" + options.port() + "-" + UUID.randomUUID());
        config.setClassLoader(options.classLoader());
        config.setProperty("hazelcast.logging.type", "slf4j");
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.setProperty("hazelcast.shutdownhook.enabled", "false");
        config.setProperty("hazelcast.max.join.seconds", Integer.toString(MAX_JOIN_SECONDS));
        config.setProperty("hazelcast.graceful.shutdown.max.wait", Integer.toString(GRACEFUL_SHUTDOWN_SECONDS));
        // a vanished machine is noticed in 15 s rather than 60; a killed process at once (its sockets close)
        config.setProperty("hazelcast.heartbeat.interval.seconds", "1");
        config.setProperty("hazelcast.max.no.heartbeat.seconds", "15");
        // two sides of a healed split look for each other after 30 s, then every 30 s
        config.setProperty("hazelcast.merge.first.run.delay.seconds", "30");
        config.setProperty("hazelcast.merge.next.run.delay.seconds", "30");
        config.getJetConfig().setEnabled(false);
        // a String key is partitioned by the text after its '@' (a key without one, such as a tenant id, by
        // itself): a tenant's states live in the tenant's partition. Member-wide, because IMap.setAsync ignores
        // a strategy given to one map
        config.setProperty(PARTITIONING_PROPERTY, StringPartitioningStrategy.class.getName());

        NetworkConfig network = config.getNetworkConfig();
        network.setPort(options.port()).setPortAutoIncrement(false);
        options.publicAddress().ifPresent(address -> network.setPublicAddress(address.toString()));
        if (!options.bindsAny()) {
            config.setProperty("hazelcast.socket.bind.any", "false");
            network.getInterfaces().setEnabled(true).addInterface(options.bindAddress());
        }
        JoinConfig join = network.getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        join.getTcpIpConfig().setEnabled(true)
                .setMembers(options.members().stream().map(MemberAddress::toString).collect(Collectors.toList()));

        int backups = options.backupCount();
        config.addMapConfig(map(LEASES, backups).setMergePolicyConfig(
                new MergePolicyConfig(PutIfAbsentMergePolicy.class.getName(), MergePolicyConfig.DEFAULT_BATCH_SIZE)));
        config.addMapConfig(map(HANDOFFS, backups));
        // the latest update wins a merge: it needs each entry's last update time
        config.addMapConfig(map(STATE, backups).setPerEntryStatsEnabled(true)
                .setMergePolicyConfig(new MergePolicyConfig(LatestUpdateMergePolicy.class.getName(),
                        MergePolicyConfig.DEFAULT_BATCH_SIZE)));
        config.addMapConfig(map(FILES, backups));
        config.addMapConfig(map(DEPLOYS, backups));
        config.addRingBufferConfig(new RingbufferConfig(MIGRATIONS).setCapacity(MIGRATIONS_CAPACITY)
                .setBackupCount(backups).setAsyncBackupCount(0));
        options.engineProperties().forEach(config::setProperty);
        return config;
    }

    private static MapConfig map(String name, int backups) {
        return new MapConfig(name).setBackupCount(backups).setAsyncBackupCount(0);
    }

    /**
     * Starts the member: it joins the configured members it reaches within {@value #MAX_JOIN_SECONDS} s, or
     * forms a cluster alone. Logs the cluster at INFO, and the configured members missing at ERROR.
     *
     * @return the running member
     */
    public HazelcastInstance start() {
        if (instance != null) {
            throw new IllegalStateException("the cluster member is started already");
        }
        resolvedMembers = resolve(options.members());
        HazelcastInstance started = Hazelcast.newHazelcastInstance(config(options));
        instance = started;
        started.getCluster().addMembershipListener(new MembershipListener() {
            @Override
            public void memberAdded(MembershipEvent event) {
                checkMembers(false);
            }

            @Override
            public void memberRemoved(MembershipEvent event) {
                checkMembers(false);
            }
        });
        Member local = started.getCluster().getLocalMember();
        LOG.info("Cluster '{}' (engine name {}): this node {} at {}; members {}", options.clusterName(),
                engineClusterName, local.getUuid(), address(local), describe(started.getCluster().getMembers()));
        checkMembers(true);
        return started;
    }

    /** The running member; null before {@link #start} and after {@link #shutdown}. */
    public HazelcastInstance instance() {
        return instance;
    }

    /** What the member was started with. */
    public NodeOptions options() {
        return options;
    }

    /** The engine's cluster name, derived from the configured name and the secret. */
    public String engineClusterName() {
        return engineClusterName;
    }

    /** The configured members not in the cluster now, as configured ({@code host:port}). */
    public List<String> missingMembers() {
        return missing;
    }

    /**
     * Hands this member's partitions to the other members before it leaves: it becomes a lite member (it stays
     * in the cluster, owning no partition), so the new owners of its tenants are known while it can still ask.
     * Does nothing when it is the last data member.
     *
     * @return whether this member owns no partition any more, within {@code bound}
     */
    public boolean migrateAway(Duration bound) throws InterruptedException {
        HazelcastInstance running = instance;
        if (running == null) {
            return false;
        }
        long end = System.nanoTime() + bound.toNanos();
        long dataMembers = running.getCluster().getMembers().stream().filter(member -> !member.isLiteMember())
                .count();
        if (dataMembers < 2 || running.getCluster().getLocalMember().isLiteMember()) {
            return false;
        }
        Thread demoting = new Thread(() -> {
            try {
                running.getCluster().demoteLocalDataMember();
            } catch (RuntimeException e) {
                LOG.warn("Cluster member could not hand its partitions over before leaving: {}", e.toString());
            }
        }, "troupe-cluster-demote");
        demoting.setDaemon(true);
        demoting.start();
        demoting.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime())));
        while (System.nanoTime() < end) {
            if (ownsNoPartition(running)) {
                return true;
            }
            Thread.sleep(MIGRATION_POLL_MILLIS);
        }
        return ownsNoPartition(running);
    }

    private static boolean ownsNoPartition(HazelcastInstance running) {
        try {
            return running.getPartitionService().getPartitions().stream()
                    .noneMatch(partition -> partition.getOwner() == null || partition.getOwner().localMember());
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * Leaves the cluster gracefully (the partitions this member owns migrate to the others first) within
     * {@code bound}; terminates the member when that is over.
     *
     * @return whether the member shut down gracefully within the bound
     */
    public boolean shutdown(Duration bound) throws InterruptedException {
        HazelcastInstance running = instance;
        if (running == null) {
            return true;
        }
        Thread leaving = new Thread(() -> {
            try {
                running.shutdown();
            } catch (RuntimeException e) {
                LOG.warn("Cluster member's graceful shutdown failed: {}", e.toString());
            }
        }, "troupe-cluster-leave");
        leaving.setDaemon(true);
        leaving.start();
        leaving.join(Math.max(1, bound.toMillis()));
        boolean graceful = !leaving.isAlive();
        if (!graceful) {
            LOG.warn("Cluster member did not leave within {} ms: terminated (its partitions' backups take over)",
                    bound.toMillis());
            running.getLifecycleService().terminate();
            leaving.join(TimeUnit.MILLISECONDS.toMillis(500));
        }
        instance = null;
        return graceful;
    }

    private synchronized void checkMembers(boolean first) {
        HazelcastInstance running = instance;
        if (running == null || !running.getLifecycleService().isRunning()) {
            return;
        }
        Set<Member> members;
        try {
            members = running.getCluster().getMembers();
        } catch (RuntimeException e) {
            return;
        }
        List<String> now = missing(members, running.getCluster().getLocalMember());
        missing = now;
        if (now.equals(logged) || (first && now.isEmpty())) {
            logged = now;
            return;
        }
        logged = now;
        if (!now.isEmpty()) {
            String alone = members.size() == 1 ? "this node serves alone every tenant whose clients reach it"
                    : "the cluster serves without them (" + members.size() + " members)";
            LOG.error("Cluster '{}': configured members {} are not in the cluster: {}; check that they run with the "
                    + "same clusterName and secret and that their cluster port is reachable. Nodes that cannot "
                    + "reach each other each serve the tenants of their clients (a split; minimumMembers set to "
                    + "a majority prevents it; see the README)", options.clusterName(), now, alone);
        } else {
            LOG.info("Cluster '{}': every configured member is in the cluster: {}", options.clusterName(),
                    describe(members));
        }
    }

    private List<String> missing(Set<Member> members, Member local) {
        Set<String> present = new HashSet<>();
        for (Member member : members) {
            present.add(member.getAddress().getHost() + ":" + member.getAddress().getPort());
            InetSocketAddress socket = member.getSocketAddress();
            if (socket != null && socket.getAddress() != null) {
                present.add(socket.getAddress().getHostAddress() + ":" + socket.getPort());
            }
        }
        List<String> result = new ArrayList<>();
        for (Map.Entry<MemberAddress, Set<String>> entry : resolvedMembers.entrySet()) {
            MemberAddress configured = entry.getKey();
            boolean found = present.contains(configured.host() + ":" + configured.port());
            for (String ip : entry.getValue()) {
                found |= present.contains(ip + ":" + configured.port());
                found |= configured.port() == local.getAddress().getPort() && isLocal(ip);
            }
            if (!found) {
                result.add(configured.toString());
            }
        }
        return List.copyOf(result);
    }

    private static boolean isLocal(String ip) {
        try {
            InetAddress address = InetAddress.getByName(ip);
            return address.isLoopbackAddress() || address.isAnyLocalAddress()
                    || NetworkInterface.getByInetAddress(address) != null;
        } catch (UnknownHostException | SocketException e) {
            return false;
        }
    }

    /** The IP addresses of each configured member (none for a name that does not resolve now). */
    private static Map<MemberAddress, Set<String>> resolve(List<MemberAddress> members) {
        Map<MemberAddress, Set<String>> resolved = new LinkedHashMap<>();
        for (MemberAddress member : members) {
            Set<String> ips = new HashSet<>();
            try {
                for (InetAddress address : InetAddress.getAllByName(member.host())) {
                    ips.add(address.getHostAddress());
                }
            } catch (UnknownHostException e) {
                LOG.warn("Cluster member {}: its host name does not resolve now", member);
            }
            resolved.put(member, ips);
        }
        return resolved;
    }

    private static String address(Member member) {
        return member.getAddress().getHost() + ":" + member.getAddress().getPort();
    }

    private static String describe(Set<Member> members) {
        return members.stream().map(member -> member.getUuid() + "@" + address(member)
                + (member.localMember() ? " (this node)" : "")).collect(Collectors.joining(", ", "[", "]"));
    }
}
