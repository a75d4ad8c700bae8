package io.troupe.cluster.state;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.concurrent.locks.LockSupport;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;

import io.troupe.testsupport.FreePorts;

/**
 * Real Hazelcast members in this JVM for tests: each on its own free port of 127.0.0.1, joined over TCP-IP
 * (multicast off) with a cluster name of their own, the maps of the data packages with one synchronous
 * backup.
 *
 * <p><b>Threading:</b> the test's thread.
 */
public final class EmbeddedMembers implements AutoCloseable {

    static {
        System.setProperty("org.slf4j.simpleLogger.log.com.hazelcast", "warn");
    }

    private final String clusterName = "troupe-test-" + UUID.randomUUID();
    private final List<Integer> ports = new ArrayList<>();
    private final List<HazelcastInstance> members = new ArrayList<>();

    /** How the members partition the keys of the state map. */
    public enum Partitioning {
        /** By the part after '@', member-wide (what the replicated store needs). */
        MEMBER_WIDE,
        /** By the part after '@', in the state map's configuration only. */
        MAP_ONLY,
        /** Hazelcast's default: by the whole key. */
        DEFAULT
    }

    private final Partitioning partitioning;

    /** Reserves {@code count} ports for members partitioning member-wide; start them with {@link #start}. */
    public EmbeddedMembers(int count) {
        this(count, Partitioning.MEMBER_WIDE);
    }

    public EmbeddedMembers(int count, Partitioning partitioning) {
        this.partitioning = partitioning;
        ports.addAll(FreePorts.take(count));
    }

    /** Starts the {@code index}th member (0-based) and waits until it has joined the others. */
    public HazelcastInstance start(int index) {
        Config config = new Config();
        config.setClusterName(clusterName);
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.setProperty("hazelcast.shutdownhook.enabled", "false");
        config.setProperty("hazelcast.logging.type", "slf4j");
        config.setProperty("hazelcast.wait.seconds.before.join", "0");
        config.setProperty("hazelcast.max.wait.seconds.before.join", "0");
        config.setProperty("hazelcast.partition.count", "71");
        if (partitioning == Partitioning.MEMBER_WIDE) {
            config.setProperty(ReplicatedStateStore.PARTITIONING_PROPERTY, ReplicatedStateStore.PARTITIONING_STRATEGY);
        } else if (partitioning == Partitioning.MAP_ONLY) {
            config.getMapConfig(ReplicatedStateStore.MAP).setPartitioningStrategyConfig(
                    new com.hazelcast.config.PartitioningStrategyConfig(ReplicatedStateStore.PARTITIONING_STRATEGY));
        }
        config.getJetConfig().setEnabled(false);
        NetworkConfig network = config.getNetworkConfig();
        network.setPort(ports.get(index)).setPortAutoIncrement(false);
        network.getInterfaces().setEnabled(true).addInterface("127.0.0.1");
        JoinConfig join = network.getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        join.getTcpIpConfig().setEnabled(true);
        for (int port : ports) {
            join.getTcpIpConfig().addMember("127.0.0.1:" + port);
        }
        config.getMapConfig(ReplicatedStateStore.MAP).setBackupCount(1);
        config.getMapConfig("troupe.files").setBackupCount(1);
        HazelcastInstance member = Hazelcast.newHazelcastInstance(config);
        while (members.size() <= index) {
            members.add(null);
        }
        members.set(index, member);
        return member;
    }

    /** Starts every member and waits until they form one cluster. */
    public EmbeddedMembers startAll() {
        for (int i = 0; i < ports.size(); i++) {
            start(i);
        }
        awaitSize(ports.size());
        return this;
    }

    public HazelcastInstance member(int index) {
        return members.get(index);
    }

    /** Waits until every running member sees {@code size} members and the partitions are safe. */
    public void awaitSize(int size) {
        await(Duration.ofSeconds(60), () -> members.stream()
                .filter(m -> m != null && m.getLifecycleService().isRunning())
                .allMatch(m -> m.getCluster().getMembers().size() == size
                        && m.getPartitionService().isClusterSafe()), "a cluster of " + size + " members");
    }

    /** Polls {@code condition} every 10 ms until it holds, failing after {@code timeout}. */
    public static void await(Duration timeout, BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("still not " + what + " after " + timeout);
            }
            LockSupport.parkNanos(10_000_000);
        }
    }

    @Override
    public void close() {
        for (HazelcastInstance member : members) {
            if (member != null) {
                member.getLifecycleService().terminate();
            }
        }
    }
}
