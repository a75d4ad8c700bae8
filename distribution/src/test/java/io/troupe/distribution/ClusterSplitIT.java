package io.troupe.distribution;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import io.troupe.protocol.ErrorCode;
import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameType;

/**
 * Two cluster nodes whose member lists cannot reach each other (each names the other's cluster port wrongly),
 * from the built distribution on loopback: each logs at ERROR which configured member is not in its cluster,
 * {@code troupe:cluster} shows it missing, and each serves the tenants written to its own {@code etc/} (tenant
 * files do not cross a split). A tenant configured on both sides is served by both: that is what a split does,
 * and it is not silent (the ERROR above). Once the member list of one node is fixed and the node restarted,
 * the two form one cluster, each tenant file reaches the other node, and every tenant is served by exactly
 * one node again.
 *
 * <p><b>Threading:</b> JUnit's thread; each node's output is read by {@link TroupeProcess}'s threads.
 */
class ClusterSplitIT {

    private static final Duration SERVED = Duration.ofSeconds(30);
    private static final Duration SYNCED = Duration.ofSeconds(60);
    private static final Duration LOGGED = Duration.ofSeconds(60);
    private static final String CLUSTER = "split";
    private static final List<String> TENANTS = List.of("west", "east", "both");

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void nodesThatCannotReachEachOtherEachLogTheMissingMemberAndServeTheirOwnTenants() throws Exception {
        try (ClusterNodes nodes = ClusterNodes.install(dir, 2, 2, CLUSTER)) {
            split(nodes);
        }
    }

    @Test
    void aNodeWhoseMemberListIsFixedJoinsAndEveryTenantIsServedByExactlyOneNodeAgain() throws Exception {
        try (ClusterNodes nodes = ClusterNodes.install(dir, 2, 2, CLUSTER)) {
            split(nodes);
            ClusterNode left = nodes.get(0);
            ClusterNode right = nodes.get(1);
            // the operator fixes the right node's member list and restarts it: it joins the left one
            writeMembers(right, right.clusterPort(), left.clusterPort());
            right.stopGracefully();
            right.launch();
            right.awaitReady();
            nodes.awaitCluster(List.of(left, right));
            for (String tenant : TENANTS) {
                Path leftFile = tenantFile(left, tenant);
                Path rightFile = tenantFile(right, tenant);
                Await.until(tenant + "'s file the same on both nodes", SYNCED, () -> Files.exists(leftFile)
                        && Files.exists(rightFile) && Files.mismatch(leftFile, rightFile) == -1,
                        () -> leftFile + " " + Files.exists(leftFile) + ", " + rightFile + " "
                                + Files.exists(rightFile));
            }
            Map<String, String> owners = nodes.awaitOwners(TENANTS);
            System.out.println("[split] after the rejoin, owners " + owners);
        }
    }

    /**
     * Starts both nodes, each naming itself and, instead of the other, a port nobody listens on; checks what
     * each logs and shows, and which tenants each serves.
     */
    private static void split(ClusterNodes nodes) throws Exception {
        ClusterNode left = nodes.get(0);
        ClusterNode right = nodes.get(1);
        int wrongForLeft = TestInstallation.freePort();
        int wrongForRight = TestInstallation.freePort();
        writeMembers(left, left.clusterPort(), wrongForLeft);
        writeMembers(right, right.clusterPort(), wrongForRight);
        left.launch();
        right.launch();
        left.awaitReady();
        right.awaitReady();

        for (ClusterNode node : List.of(left, right)) {
            int wrong = node == left ? wrongForLeft : wrongForRight;
            String error = node.awaitLogLine("Cluster '" + CLUSTER + "': configured members [127.0.0.1:" + wrong
                    + "] are not in the cluster", LOGGED);
            assertTrue(error.contains(" ERROR "), () -> "not logged at ERROR: " + error);
            System.out.println("[split] " + node.name() + " logged: " + error);
            nodes.awaitCluster(List.of(node));
            ClusterTable table = node.clusterTable();
            assertEquals(List.of("127.0.0.1:" + wrong), table.missing(), table::toString);
        }

        new TestTenants(left.home(), left.clientPort()).write("west");
        new TestTenants(right.home(), right.clientPort()).write("east");
        new TestTenants(left.home(), left.clientPort()).write("both");
        new TestTenants(right.home(), right.clientPort()).write("both");
        assertServed(left, "west");
        assertServed(right, "east");
        // the other side never heard of them: no tenant file crosses a split
        assertEquals(ErrorCode.AUTH_FAILED.code(), ClusterNodes.hello(right, "west").name());
        assertEquals(ErrorCode.AUTH_FAILED.code(), ClusterNodes.hello(left, "east").name());
        // a tenant configured on both sides is served by both: the split, announced by the ERROR above
        assertServed(left, "both");
        assertServed(right, "both");
    }

    private static Path tenantFile(ClusterNode node, String tenant) {
        return node.home().resolve("etc/io.troupe.tenant-" + tenant + ".cfg");
    }

    /** Rewrites the node's {@code members} line: its own cluster port and {@code other}, on 127.0.0.1. */
    private static void writeMembers(ClusterNode node, int own, int other) throws Exception {
        Path config = node.home().resolve("etc/io.troupe.cluster.cfg");
        String text = Files.readString(config, UTF_8).replaceFirst("(?m)^members = .*$",
                "members = 127.0.0.1:" + own + ", 127.0.0.1:" + other);
        Files.writeString(config, text, UTF_8);
    }

    /** {@code node} welcomes a HELLO of {@code tenant} (once its file is loaded) and answers its echo. */
    private static void assertServed(ClusterNode node, String tenant) throws Exception {
        try (WireClient client = new TestTenants(node.home(), node.clientPort()).served(tenant, SERVED)) {
            client.send(WireClient.request(2, "echo", tenant + " at " + node.name()));
            Frame reply = client.expect(SERVED);
            assertEquals(FrameType.REPLY, reply.type(), reply::toString);
            assertEquals(tenant + " at " + node.name(), reply.text());
        }
    }
}
