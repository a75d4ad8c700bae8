package io.troupe.cluster.placement;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;

import io.troupe.api.cluster.Placement;
import io.troupe.cluster.engine.ClusterNode;
import io.troupe.cluster.engine.TestNodes;

/**
 * Real cluster nodes in this JVM for the placement tests: each a {@link ClusterNode} on its own port of
 * 127.0.0.1 with its {@link NodeFigures}, {@link MigrationLog}, {@link TenantOwnership} and a
 * {@link RecordingHandover} sharing one {@link ServingLedger}; node {@code i}'s client address is
 * {@code 127.0.0.1:(17000 + i)}.
 *
 * <p><b>Threading:</b> the test's thread.
 */
final class TestCluster implements AutoCloseable {

    /** One node. */
    final class Node {
        final int index;
        final String name;
        final ClusterNode node;
        final HazelcastInstance instance;
        final RecordingHandover handover;
        final NodeFigures figures;
        final MigrationLog log;
        final TenantOwnership ownership;
        boolean stopped;

        Node(int index, Set<String> unknown) throws InterruptedException {
            this.index = index;
            this.name = "node" + index;
            this.node = new ClusterNode(TestNodes.options(ports.get(index), ports, TestNodes.SECRET, Map.of()));
            this.instance = node.start();
            this.handover = new RecordingHandover(name, ledger);
            handover.ignore(unknown);
            this.figures = new NodeFigures(instance, TestCluster.clientAddress(index), () -> 0, () -> 0.0,
                    handover::knownTenants);
            this.log = new MigrationLog(instance);
            this.ownership = new TenantOwnership(instance, handover, figures, log, minimumMembers, handoverTimeout);
            ownership.start();
        }

        String uuid() {
            return ownership.localNode();
        }

        String clientAddress() {
            return TestCluster.clientAddress(index);
        }

        /** Claims {@code tenant}, waits for the answer (at most 15 s) and tells the ledger of a LOCAL one. */
        Placement claim(String tenant) throws Exception {
            Placement placement = ownership.claim(tenant).toCompletableFuture().get(15, TimeUnit.SECONDS);
            if (placement.kind() == Placement.Kind.LOCAL) {
                ledger.serving(tenant, name);
            }
            return placement;
        }

        boolean owns(String tenant) {
            Member owner = instance.getPartitionService().getPartition(tenant).getOwner();
            return owner != null && owner.localMember();
        }

        /** Dies at once, like kill -9: no release, no handoff. */
        void crash() throws InterruptedException {
            stopped = true;
            instance.getLifecycleService().terminate();
            ownership.close();
        }

        /**
         * Leaves as the component does: releases, partitions handed over, redirects, shutdown, close. The
         * partitions get longer than the component's budget (3 s): on a loaded machine (CI on two cores) their
         * migration can take longer, and the test is about where clients are sent, not how fast.
         */
        void leave() throws InterruptedException {
            stopped = true;
            ownership.leave(Duration.ofSeconds(4));
            if (node.migrateAway(Duration.ofSeconds(15))) {
                ownership.awaitRedirected(Duration.ofSeconds(5));
            }
            node.shutdown(Duration.ofSeconds(6));
            ownership.close();
        }
    }

    private final List<Integer> ports;
    private final int minimumMembers;
    private final Duration handoverTimeout;
    private final ServingLedger ledger = new ServingLedger();
    private final List<Node> nodes = new ArrayList<>();

    TestCluster(int capacity, int minimumMembers, Duration handoverTimeout) {
        this.ports = TestNodes.freePorts(capacity);
        this.minimumMembers = minimumMembers;
        this.handoverTimeout = handoverTimeout;
    }

    static String clientAddress(int index) {
        return "127.0.0.1:" + (17000 + index);
    }

    ServingLedger ledger() {
        return ledger;
    }

    /** Starts the next node; waits until every running node sees all running ones and their figures. */
    Node start() throws InterruptedException {
        return start(Set.of());
    }

    /** Starts the next node, whose server does not know {@code unknown} (yet); waits as {@link #start()}. */
    Node start(Set<String> unknown) throws InterruptedException {
        Node node = new Node(nodes.size(), unknown);
        nodes.add(node);
        awaitSettled();
        return node;
    }

    Node node(int index) {
        return nodes.get(index);
    }

    List<Node> running() {
        return nodes.stream().filter(node -> !node.stopped).toList();
    }

    /** The running node that owns {@code tenant} by the partition table. */
    Node owner(String tenant) {
        for (Node node : running()) {
            if (node.owns(tenant)) {
                return node;
            }
        }
        throw new AssertionError("no running node owns " + tenant);
    }

    /**
     * Waits (at most 20 s) until the running nodes see each other, the partitions are safe, and every node
     * knows every other's client address.
     */
    void awaitSettled() {
        List<Node> running = running();
        assertTrue(TestNodes.await(() -> running.stream().allMatch(node ->
                node.instance.getCluster().getMembers().size() == running.size()
                        && node.instance.getPartitionService().isClusterSafe()
                        && running.stream().allMatch(other ->
                                !node.figures.clientAddress(java.util.UUID.fromString(other.uuid())).isEmpty())),
                Duration.ofSeconds(20)), "the cluster did not settle");
    }

    @Override
    public void close() throws InterruptedException {
        for (Node node : nodes) {
            if (!node.stopped) {
                node.stopped = true;
                node.instance.getLifecycleService().terminate();
                node.ownership.close();
            }
        }
    }
}
