package io.troupe.distribution;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameType;
import io.troupe.protocol.Redirect;

/**
 * The nodes of one test cluster ({@link ClusterNode}), on free loopback ports, and what the test asks of
 * them as a whole: that they have formed a cluster, and which node serves each tenant.
 *
 * <p><b>Threading:</b> the test thread.
 */
final class ClusterNodes implements AutoCloseable {

    private static final Duration FORMED = Duration.ofSeconds(90);
    private static final Duration SETTLED = Duration.ofSeconds(60);
    private static final Duration REPLY = Duration.ofSeconds(20);

    private final List<ClusterNode> nodes = new ArrayList<>();
    /** Each node's id as troupe:cluster shortens it, by client address; filled as the nodes form a cluster. */
    private final Map<String, String> ids = new TreeMap<>();

    /**
     * Installs {@code count} nodes under {@code dir} ("node1", ...), each on a free client port and a free
     * cluster port, all of cluster {@code clusterName}. Node {@code i} (from 0) is given as members the cluster
     * ports of the first {@code min(max(i + 1, firstMembers), count)} nodes: with {@code firstMembers} 3 of 4,
     * the first three know each other and the fourth, which joins later, knows all four.
     */
    static ClusterNodes install(Path dir, int count, int firstMembers, String clusterName) throws IOException {
        List<Integer> clusterPorts = new ArrayList<>();
        List<Integer> clientPorts = new ArrayList<>();
        while (clusterPorts.size() < count) {
            int cluster = TestInstallation.freePort();
            int client = TestInstallation.freePort();
            if (cluster != client && !clusterPorts.contains(cluster) && !clientPorts.contains(client)
                    && !clusterPorts.contains(client) && !clientPorts.contains(cluster)) {
                clusterPorts.add(cluster);
                clientPorts.add(client);
            }
        }
        ClusterNodes cluster = new ClusterNodes();
        for (int i = 0; i < count; i++) {
            List<Integer> members = clusterPorts.subList(0, Math.min(Math.max(i + 1, firstMembers), count));
            cluster.nodes.add(ClusterNode.install(dir, "node" + (i + 1), clientPorts.get(i), clusterPorts.get(i),
                    clusterName, members));
        }
        return cluster;
    }

    /** Node {@code index}, from 0. */
    ClusterNode get(int index) {
        return nodes.get(index);
    }

    /** Every node, running or not. */
    List<ClusterNode> all() {
        return List.copyOf(nodes);
    }

    /** The nodes whose process runs. */
    List<ClusterNode> live() {
        return nodes.stream().filter(ClusterNode::running).toList();
    }

    /** The client addresses of the live nodes. */
    List<String> liveAddresses() {
        return live().stream().map(ClusterNode::address).toList();
    }

    ClusterNode byAddress(String address) {
        return nodes.stream().filter(node -> node.address().equals(address)).findFirst()
                .orElseThrow(() -> new AssertionError("no node at " + address));
    }

    /** The id troupe:cluster showed for the node at {@code address} (shortened), or null. */
    String id(String address) {
        return ids.get(address);
    }

    /** Each node's id as troupe:cluster shortens it, by client address. */
    Map<String, String> ids() {
        return Map.copyOf(ids);
    }

    /** Starts {@code members} and waits until each is ready and they form a cluster of exactly them. */
    void start(List<ClusterNode> members) throws Exception {
        for (ClusterNode node : members) {
            node.launch();
        }
        for (ClusterNode node : members) {
            node.awaitReady();
        }
        awaitCluster(members);
    }

    /**
     * Waits until every node of {@code members} reports a cluster of exactly them with their client
     * addresses, and notes each one's id.
     */
    void awaitCluster(List<ClusterNode> members) throws Exception {
        List<String> addresses = members.stream().map(ClusterNode::address).sorted().toList();
        for (ClusterNode node : members) {
            Await.until(node + " in a cluster of " + addresses, FORMED, () -> {
                ClusterTable table = node.clusterTable();
                return table.inCluster() && table.addressesKnown() && table.members().stream()
                        .map(ClusterTable.Member::clientAddress).sorted().toList().equals(addresses);
            }, () -> node.clusterTable().toString());
            ClusterTable.Member local = node.clusterTable().members().stream().filter(ClusterTable.Member::local)
                    .findFirst().orElseThrow(() -> new AssertionError(node + " does not star itself"));
            ids.put(node.address(), local.node());
        }
    }

    /**
     * The node serving each of {@code tenants}, once the live nodes agree: a HELLO of the tenant at each one is
     * welcomed by exactly one, and the others answer ERROR {@code tenant.moved} naming that one's address.
     *
     * @return tenant to the client address of its node
     */
    Map<String, String> awaitOwners(Collection<String> tenants) throws Exception {
        List<ClusterNode> members = live();
        Map<String, String> owners = new TreeMap<>();
        List<String> seen = new ArrayList<>();
        Await.until("every node agreeing on the owner of each tenant", SETTLED, () -> {
            owners.clear();
            seen.clear();
            for (String tenant : tenants) {
                List<String> welcomed = new ArrayList<>();
                List<String> named = new ArrayList<>();
                for (ClusterNode node : members) {
                    Frame answer = hello(node, tenant);
                    seen.add(tenant + "@" + node.name() + ": " + answer + " " + answer.text());
                    if (answer.type() == FrameType.WELCOME) {
                        welcomed.add(node.address());
                    } else {
                        named.add(Redirect.target(answer).orElse("(" + answer.name() + ")"));
                    }
                }
                if (welcomed.size() != 1 || !named.stream().allMatch(welcomed.get(0)::equals)) {
                    return false;
                }
                owners.put(tenant, welcomed.get(0));
            }
            return true;
        }, () -> String.join("\n", seen));
        return Map.copyOf(owners);
    }

    /** The answer of {@code node} to a HELLO of {@code tenant} with the test token, on a connection of its own. */
    static Frame hello(ClusterNode node, String tenant) throws IOException {
        try (WireClient client = WireClient.connect(node.clientPort())) {
            return client.hello(tenant, TestTenants.TOKEN, REPLY);
        }
    }

    /** The live node serving most tenants in {@code owners} (the first of them on a tie). */
    ClusterNode busiest(Map<String, String> owners) {
        ClusterNode busiest = null;
        for (ClusterNode node : live()) {
            if (busiest == null || tenantsOf(owners, node).size() > tenantsOf(owners, busiest).size()) {
                busiest = node;
            }
        }
        assertTrue(busiest != null && !tenantsOf(owners, busiest).isEmpty(), "no node serves a tenant: " + owners);
        return busiest;
    }

    /** The tenants {@code owners} gives to {@code node}, sorted. */
    static List<String> tenantsOf(Map<String, String> owners, ClusterNode node) {
        return owners.entrySet().stream().filter(owner -> owner.getValue().equals(node.address()))
                .map(Map.Entry::getKey).sorted().toList();
    }

    /** Kills the nodes still running. */
    @Override
    public void close() {
        nodes.forEach(ClusterNode::close);
    }
}
