package io.troupe.cluster.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.troupe.api.cluster.ClusterMember;
import io.troupe.api.cluster.Migration;
import io.troupe.api.cluster.Placement;
import io.troupe.cluster.engine.ClusterNode;
import io.troupe.cluster.engine.TestNodes;

/**
 * Tenant placement on real Hazelcast members of this JVM: one owner per tenant, joins that wait for the old
 * owner's release, crash takeover, graceful leave and the minimum of members. A {@link ServingLedger} shared by
 * the nodes' handovers fails a test where two nodes serve one tenant at once.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread; each node runs its cluster thread and Hazelcast's.
 */
class TenantOwnershipTest {

    private static List<String> tenants(int count) {
        return IntStream.range(0, count).mapToObj(i -> "tenant-" + i).toList();
    }

    /** Claims every tenant on its owner; returns which node serves each. */
    private static Map<String, TestCluster.Node> claimOnOwners(TestCluster cluster, List<String> tenants)
            throws Exception {
        Map<String, TestCluster.Node> servedBy = new HashMap<>();
        for (String tenant : tenants) {
            TestCluster.Node owner = cluster.owner(tenant);
            assertEquals(Placement.Kind.LOCAL, owner.claim(tenant).kind(), tenant);
            servedBy.put(tenant, owner);
        }
        return servedBy;
    }

    private static boolean hasMigration(TestCluster.Node node, String tenant, String from, Migration.Cause cause) {
        node.log.refresh();
        return node.log.migrations().stream().anyMatch(migration -> migration.tenant().equals(tenant)
                && migration.from().equals(from) && migration.to().equals(node.uuid())
                && migration.cause() == cause && migration.done());
    }

    @Test
    void everyTenantHasExactlyOneLocalClaimAndTheOthersNameItsOwner() throws Exception {
        try (TestCluster cluster = new TestCluster(3, 1, Duration.ofSeconds(5))) {
            cluster.start();
            cluster.start();
            cluster.start();

            for (String tenant : tenants(12)) {
                List<TestCluster.Node> local = new ArrayList<>();
                Map<TestCluster.Node, Placement> elsewhere = new HashMap<>();
                for (TestCluster.Node node : cluster.running()) {
                    Placement placement = node.claim(tenant);
                    if (placement.kind() == Placement.Kind.LOCAL) {
                        local.add(node);
                    } else {
                        assertEquals(Placement.Kind.ELSEWHERE, placement.kind(), placement.reason());
                        elsewhere.put(node, placement);
                    }
                }
                assertEquals(1, local.size(), tenant + " LOCAL on " + local.size() + " nodes");
                assertSame(cluster.owner(tenant), local.get(0));
                for (Placement placement : elsewhere.values()) {
                    assertEquals(local.get(0).clientAddress(), placement.ownerAddress(), tenant);
                }
                assertEquals(Placement.Kind.LOCAL, local.get(0).ownership.claim(tenant).toCompletableFuture()
                        .getNow(null).kind(), "a served tenant's claim is a completed stage");
            }

            TestCluster.Node first = cluster.node(0);
            ClusterViewService view = new ClusterViewService(first.instance, "troupe-test",
                    first.node::missingMembers, first.figures, first.log, first.ownership);
            assertTrue(TestNodes.await(() -> view.members().stream().allMatch(member ->
                    member.tenants().equals(List.copyOf(cluster.running().stream()
                            .filter(node -> node.uuid().equals(member.node())).findFirst().orElseThrow()
                            .ownership.servedTenants()))), Duration.ofSeconds(5)), view.members().toString());
            List<ClusterMember> members = view.members();
            assertEquals(3, members.size());
            assertEquals(12, members.stream().mapToInt(member -> member.tenants().size()).sum());
            assertTrue(members.get(0).local());
            assertEquals(List.of(), view.missingMembers());
            assertEquals(List.of(), cluster.ledger().violations());
        }
    }

    @Test
    void aJoiningNodeTakesItsTenantsOnlyOnceTheOldOwnersHaveReleasedThem() throws Exception {
        try (TestCluster cluster = new TestCluster(3, 1, Duration.ofSeconds(10))) {
            cluster.start();
            cluster.start();
            List<String> tenants = tenants(24);
            Map<String, TestCluster.Node> before = claimOnOwners(cluster, tenants);
            List<CompletableFuture<Void>> gates = List.of(cluster.node(0).handover.closeGate(),
                    cluster.node(1).handover.closeGate());

            TestCluster.Node joined = cluster.start();

            List<String> moved = tenants.stream().filter(joined::owns).toList();
            assertFalse(moved.isEmpty(), "the new node owns none of " + tenants.size() + " tenants");
            for (String tenant : moved) {
                assertTrue(TestNodes.await(() -> !before.get(tenant).handover.calls("release", tenant).isEmpty(),
                        Duration.ofSeconds(10)), "no release of " + tenant);
            }
            List<CompletableFuture<Placement>> claims = moved.stream()
                    .map(tenant -> joined.ownership.claim(tenant).toCompletableFuture()).toList();
            assertThrows(TimeoutException.class, () -> CompletableFuture.anyOf(claims.toArray(new CompletableFuture[0]))
                    .get(300, TimeUnit.MILLISECONDS), "a claim answered while its old owner was releasing");
            gates.forEach(gate -> gate.complete(null));

            for (int i = 0; i < moved.size(); i++) {
                String tenant = moved.get(i);
                Placement placement = claims.get(i).get(10, TimeUnit.SECONDS);
                assertEquals(Placement.Kind.LOCAL, placement.kind(), tenant + ": " + placement.reason());
                cluster.ledger().serving(tenant, joined.name);
                TestCluster.Node old = before.get(tenant);
                assertTrue(TestNodes.await(() -> !old.handover.calls("redirect", tenant).isEmpty(),
                        Duration.ofSeconds(5)), "no redirect of " + tenant);
                RecordingHandover.Call release = old.handover.calls("release", tenant).get(0);
                RecordingHandover.Call redirect = old.handover.calls("redirect", tenant).get(0);
                assertTrue(release.nanos() < redirect.nanos());
                assertEquals(joined.clientAddress(), redirect.address(), tenant);
                assertEquals(joined.clientAddress(), old.claim(tenant).ownerAddress(), tenant);
                assertTrue(TestNodes.await(() -> hasMigration(joined, tenant, old.uuid(), Migration.Cause.JOIN),
                        Duration.ofSeconds(5)), joined.log.migrations().toString());
            }
            for (String tenant : tenants) {
                if (!moved.contains(tenant)) {
                    assertEquals(List.of(), before.get(tenant).handover.calls("release", tenant), tenant);
                }
            }
            assertEquals(List.of(), cluster.ledger().violations());
        }
    }

    @Test
    void anOldOwnerServesATenantUntilItsNewOwnerKnowsIt() throws Exception {
        try (TestCluster cluster = new TestCluster(3, 1, Duration.ofSeconds(20))) {
            cluster.start();
            cluster.start();
            List<String> tenants = tenants(24);
            Map<String, TestCluster.Node> before = claimOnOwners(cluster, tenants);

            TestCluster.Node joined = cluster.start(Set.copyOf(tenants)); // its server has loaded no tenant yet

            List<String> moved = tenants.stream().filter(joined::owns).toList();
            assertFalse(moved.isEmpty(), "the new node owns none of " + tenants.size() + " tenants");
            for (String tenant : moved) {
                TestCluster.Node old = before.get(tenant);
                old.ownership.reconcileNow(); // it sees the new owner (the cluster has settled)
                Placement placement = old.claim(tenant);
                assertEquals(Placement.Kind.LOCAL, placement.kind(), tenant + " left its old owner: "
                        + placement.reason());
                assertEquals(List.of(), old.handover.calls("release", tenant), tenant);
            }
            CompletableFuture<Placement> early = joined.ownership.claim(moved.get(0)).toCompletableFuture();
            assertThrows(TimeoutException.class, () -> early.get(300, TimeUnit.MILLISECONDS),
                    "the new owner answered a claim while the old one served the tenant");

            joined.handover.ignore(Set.of()); // the files are loaded

            for (String tenant : moved) {
                TestCluster.Node old = before.get(tenant);
                assertTrue(TestNodes.await(() -> !old.handover.calls("redirect", tenant).isEmpty(),
                        Duration.ofSeconds(10)), "no redirect of " + tenant);
                assertEquals(joined.clientAddress(), old.handover.calls("redirect", tenant).get(0).address());
                Placement placement = tenant.equals(moved.get(0)) ? early.get(10, TimeUnit.SECONDS)
                        : joined.ownership.claim(tenant).toCompletableFuture().get(10, TimeUnit.SECONDS);
                assertEquals(Placement.Kind.LOCAL, placement.kind(), tenant + ": " + placement.reason());
                cluster.ledger().serving(tenant, joined.name);
            }
            assertEquals(List.of(), cluster.ledger().violations());
        }
    }

    @Test
    void aNewOwnerThatNeverLoadsATenantGetsItAfterHalfTheHandoverTimeout() throws Exception {
        try (TestCluster cluster = new TestCluster(2, 1, Duration.ofSeconds(2))) {
            TestCluster.Node first = cluster.start();
            List<String> tenants = tenants(16);
            claimOnOwners(cluster, tenants);

            TestCluster.Node joined = cluster.start(Set.copyOf(tenants));

            List<String> moved = tenants.stream().filter(joined::owns).toList();
            assertFalse(moved.isEmpty(), "the new node owns none of " + tenants.size() + " tenants");
            for (String tenant : moved) {
                assertTrue(TestNodes.await(() -> !first.handover.calls("redirect", tenant).isEmpty(),
                        Duration.ofSeconds(10)), "no redirect of " + tenant);
                assertEquals(joined.clientAddress(), first.handover.calls("redirect", tenant).get(0).address());
            }
        }
    }

    @Test
    void aCrashedNodesTenantsAreTakenOverByTheirNewOwners() throws Exception {
        try (TestCluster cluster = new TestCluster(3, 1, Duration.ofSeconds(5))) {
            cluster.start();
            cluster.start();
            TestCluster.Node crashing = cluster.start();
            List<String> tenants = tenants(24);
            claimOnOwners(cluster, tenants);
            Set<String> lost = crashing.ownership.servedTenants();
            assertFalse(lost.isEmpty());

            crashing.crash();
            lost.forEach(tenant -> cluster.ledger().released(tenant, crashing.name));
            cluster.awaitSettled();

            for (String tenant : lost) {
                TestCluster.Node owner = cluster.owner(tenant);
                Placement placement = owner.claim(tenant);
                assertEquals(Placement.Kind.LOCAL, placement.kind(), tenant + ": " + placement.reason());
                assertTrue(TestNodes.await(() -> hasMigration(owner, tenant, crashing.uuid(), Migration.Cause.CRASH),
                        Duration.ofSeconds(5)), owner.log.migrations().toString());
            }
            for (TestCluster.Node survivor : cluster.running()) {
                assertEquals(List.of(), survivor.handover.calls().stream()
                        .filter(call -> lost.contains(call.tenant())).toList());
            }
            assertEquals(List.of(), cluster.ledger().violations());
        }
    }

    @Test
    void aLeavingNodeReleasesEveryTenantAndSendsItsClientsToTheNewOwners() throws Exception {
        // a handover timeout longer than the partitions' migration on a loaded machine (CI on two cores): past
        // it, a release redirects to no address rather than wait for the new owner's, which is not what this
        // test is about (CI failed twice on it)
        try (TestCluster cluster = new TestCluster(3, 1, Duration.ofSeconds(20))) {
            cluster.start();
            cluster.start();
            TestCluster.Node leaving = cluster.start();
            List<String> tenants = tenants(24);
            claimOnOwners(cluster, tenants);
            Set<String> served = leaving.ownership.servedTenants();
            assertFalse(served.isEmpty());

            leaving.leave();
            cluster.awaitSettled();

            for (String tenant : served) {
                assertEquals(1, leaving.handover.calls("release", tenant).size(), tenant);
                List<RecordingHandover.Call> redirects = leaving.handover.calls("redirect", tenant);
                assertEquals(1, redirects.size(), tenant);
                TestCluster.Node owner = cluster.owner(tenant);
                assertEquals(owner.clientAddress(), redirects.get(0).address(), tenant);
                Placement placement = owner.claim(tenant);
                assertEquals(Placement.Kind.LOCAL, placement.kind(), tenant + ": " + placement.reason());
                assertTrue(TestNodes.await(() -> hasMigration(owner, tenant, leaving.uuid(), Migration.Cause.LEAVE),
                        Duration.ofSeconds(5)), owner.log.migrations().toString());
            }
            assertEquals(Set.of(), leaving.ownership.servedTenants());
            assertEquals(Placement.Kind.ELSEWHERE, leaving.ownership.claim("tenant-0").toCompletableFuture()
                    .getNow(null).kind());

            TestCluster.Node first = cluster.node(0);
            ClusterViewService view = new ClusterViewService(first.instance, "troupe-test",
                    first.node::missingMembers, first.figures, first.log, first.ownership);
            assertEquals(2, view.members().size());
            assertEquals(List.of("127.0.0.1:" + leaving.node.options().port()), view.missingMembers());
            List<Migration> migrations = view.migrations();
            assertTrue(migrations.stream().filter(Migration::done).count() >= served.size(), migrations.toString());
            for (int i = 1; i < migrations.size(); i++) {
                Migration earlier = migrations.get(i - 1);
                Migration later = migrations.get(i);
                assertTrue(!earlier.done() || later.done(), "in progress first: " + migrations);
                assertTrue(earlier.done() != later.done() || !later.started().isAfter(earlier.started()),
                        "newest first: " + migrations);
            }
            assertEquals(List.of(), cluster.ledger().violations());
        }
    }

    @Test
    void aNodeWhoseLeaseWasTakenStopsServingTheTenant() throws Exception {
        try (TestCluster cluster = new TestCluster(2, 1, Duration.ofSeconds(5))) {
            TestCluster.Node first = cluster.start();
            TestCluster.Node second = cluster.start();
            String tenant = tenants(12).stream().filter(first::owns).findFirst().orElseThrow();
            assertEquals(Placement.Kind.LOCAL, first.claim(tenant).kind());

            // what a healed split can leave: both sides served the tenant, the merge kept the other's lease
            first.instance.<String, String>getMap(ClusterNode.LEASES).put(tenant, second.uuid());

            assertTrue(TestNodes.await(() -> first.handover.calls("redirect", tenant).size() == 1,
                    Duration.ofSeconds(10)), first.handover.calls().toString());
            assertEquals(1, first.handover.calls("release", tenant).size());
            assertEquals(first.clientAddress(), first.handover.calls("redirect", tenant).get(0).address());
            assertFalse(first.ownership.servedTenants().contains(tenant));
        }
    }

    @Test
    void belowTheMinimumOfMembersNoTenantIsServed() throws Exception {
        try (TestCluster cluster = new TestCluster(2, 2, Duration.ofSeconds(5))) {
            TestCluster.Node first = cluster.start();
            Placement alone = first.claim("tenant-0");
            assertEquals(Placement.Kind.UNAVAILABLE, alone.kind());
            assertEquals("the cluster has fewer than 2 members", alone.reason());

            TestCluster.Node second = cluster.start();
            List<String> tenants = tenants(12);
            claimOnOwners(cluster, tenants);
            Set<String> servedByFirst = first.ownership.servedTenants();
            assertFalse(servedByFirst.isEmpty());

            second.crash();
            servedByFirst.forEach(tenant -> assertTrue(TestNodes.await(() ->
                    first.handover.calls("redirect", tenant).size() == 1, Duration.ofSeconds(10)), tenant));

            for (String tenant : servedByFirst) {
                assertEquals(1, first.handover.calls("release", tenant).size());
                assertEquals("", first.handover.calls("redirect", tenant).get(0).address());
            }
            assertEquals(Set.of(), first.ownership.servedTenants());
            assertEquals(Placement.Kind.UNAVAILABLE, first.claim(tenants.get(0)).kind());
        }
    }
}
