package io.troupe.cluster.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.hazelcast.cluster.Member;
import com.hazelcast.config.Config;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;

/**
 * Real members on 127.0.0.1: the secret decides who forms a cluster, missing configured members are named,
 * a tenant's state keys live in the tenant's partition, and the configuration carries the design's settings.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread; Hazelcast runs its own.
 */
class ClusterNodeTest {

    private final List<ClusterNode> nodes = new ArrayList<>();

    @AfterEach
    void stop() {
        for (ClusterNode node : nodes) {
            HazelcastInstance instance = node.instance();
            if (instance != null) {
                instance.getLifecycleService().terminate();
            }
        }
    }

    private ClusterNode start(int port, List<Integer> ports, String secret) {
        ClusterNode node = new ClusterNode(TestNodes.options(port, ports, secret,
                Map.of("hazelcast.max.join.seconds", "3")));
        nodes.add(node);
        node.start();
        return node;
    }

    @Test
    void nodesWithTheSameSecretFormOneClusterAndOthersStayAlone() {
        List<Integer> ports = TestNodes.freePorts(3);
        ClusterNode first = start(ports.get(0), ports, TestNodes.SECRET);
        ClusterNode second = start(ports.get(1), ports, TestNodes.SECRET);
        ClusterNode stranger = start(ports.get(2), ports, "another-secret-of-32-characters!");

        assertTrue(TestNodes.await(() -> first.instance().getCluster().getMembers().size() == 2,
                Duration.ofSeconds(10)));
        assertEquals(2, second.instance().getCluster().getMembers().size());
        assertEquals(1, stranger.instance().getCluster().getMembers().size());
        assertEquals(List.of("127.0.0.1:" + ports.get(0), "127.0.0.1:" + ports.get(1)),
                stranger.missingMembers());
        assertTrue(TestNodes.await(() -> first.missingMembers().equals(List.of("127.0.0.1:" + ports.get(2))),
                Duration.ofSeconds(5)), first.missingMembers().toString());
    }

    @Test
    void theMissingMembersFollowTheMembership() {
        List<Integer> ports = TestNodes.freePorts(2);
        ClusterNode first = start(ports.get(0), ports, TestNodes.SECRET);
        assertEquals(List.of("127.0.0.1:" + ports.get(1)), first.missingMembers());

        start(ports.get(1), ports, TestNodes.SECRET);

        assertTrue(TestNodes.await(() -> first.missingMembers().isEmpty(), Duration.ofSeconds(10)),
                first.missingMembers().toString());
    }

    @Test
    void aTenantsStateKeysLiveInTheTenantsPartition() {
        List<Integer> ports = TestNodes.freePorts(2);
        ClusterNode first = start(ports.get(0), ports, TestNodes.SECRET);
        ClusterNode second = start(ports.get(1), ports, TestNodes.SECRET);
        assertTrue(TestNodes.await(() -> first.instance().getCluster().getMembers().size() == 2,
                Duration.ofSeconds(10)));
        IMap<String, byte[]> state = first.instance().getMap(ClusterNode.STATE);
        List<String> tenants = List.of("acme", "globex", "initech", "umbrella", "hooli", "stark", "wayne", "tyrell");
        for (String tenant : tenants) {
            state.set("handler:counter.add/handler:counter.add@" + tenant, new byte[] {1});
            state.setAsync("handler:counter.get/handler:counter.get@" + tenant, new byte[] {2})
                    .toCompletableFuture().join();
        }

        for (String tenant : tenants) {
            Member owner = first.instance().getPartitionService().getPartition(tenant).getOwner();
            HazelcastInstance ownerInstance = owner.localMember() ? first.instance() : second.instance();
            Set<String> local = ownerInstance.<String, byte[]>getMap(ClusterNode.STATE).localKeySet();
            assertTrue(local.contains("handler:counter.add/handler:counter.add@" + tenant), tenant);
            assertTrue(local.contains("handler:counter.get/handler:counter.get@" + tenant), tenant);
        }
    }

    @Test
    void theConfigurationFollowsTheDesign() {
        NodeOptions options = TestNodes.options(5801, List.of(5801, 5802), TestNodes.SECRET, Map.of());
        Config config = ClusterNode.config(options);

        assertEquals(DerivedClusterName.of("troupe-test", TestNodes.SECRET), config.getClusterName());
        assertEquals(false, config.getNetworkConfig().getJoin().getMulticastConfig().isEnabled());
        assertEquals(false, config.getNetworkConfig().getJoin().isAutoDetectionEnabled());
        assertEquals(List.of("127.0.0.1:5801", "127.0.0.1:5802"),
                config.getNetworkConfig().getJoin().getTcpIpConfig().getMembers());
        assertEquals(false, config.getNetworkConfig().isPortAutoIncrement());
        assertEquals("slf4j", config.getProperty("hazelcast.logging.type"));
        assertEquals("false", config.getProperty("hazelcast.phone.home.enabled"));
        assertEquals("false", config.getProperty("hazelcast.shutdownhook.enabled"));
        assertEquals(false, config.getJetConfig().isEnabled());
        assertEquals("com.hazelcast.partition.strategy.StringPartitioningStrategy",
                config.getProperty("hazelcast.partitioning.strategy.class"));
        for (String map : List.of(ClusterNode.LEASES, ClusterNode.HANDOFFS, ClusterNode.STATE, ClusterNode.FILES,
                ClusterNode.DEPLOYS)) {
            assertEquals(1, config.getMapConfig(map).getBackupCount(), map);
        }
        assertEquals("com.hazelcast.spi.merge.LatestUpdateMergePolicy",
                config.getMapConfig(ClusterNode.STATE).getMergePolicyConfig().getPolicy());
        assertEquals("com.hazelcast.spi.merge.PutIfAbsentMergePolicy",
                config.getMapConfig(ClusterNode.LEASES).getMergePolicyConfig().getPolicy());
        assertEquals(ClusterNode.MIGRATIONS_CAPACITY, config.getRingbufferConfig(ClusterNode.MIGRATIONS).getCapacity());
    }
}
