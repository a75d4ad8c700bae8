package io.troupe.distribution;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import io.troupe.client.ClientLoop;
import io.troupe.client.TroupeClient;
import io.troupe.protocol.ErrorCode;
import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameType;

/**
 * A cluster of real distribution processes on loopback (issue 17), one scenario in order, sharing the
 * nodes: each test method is one step and assumes the steps before it passed.
 * <ol>
 * <li>Three nodes form a cluster; six tenants, written to one node's {@code etc/}, reach every node. A HELLO
 *     of each tenant at each node is welcomed by exactly one node and redirected to it by the others, the
 *     nodes' {@code troupe:cluster} tables agree, and clients given every node's address are served.</li>
 * <li>A plugin jar copied into {@code deploy/} of one node reaches every node and answers there, in the
 *     node's own shell and for the tenants each node serves.</li>
 * <li>A jar no node can install (no manifest), copied into {@code deploy/} of one node, is reported in the log
 *     with the node, the file and the version, and rolled back on every node (it had no previous version: it
 *     is removed everywhere).</li>
 * <li>A new version of a plugin, copied into {@code deploy/} of one node under load, is hot-swapped on every
 *     node: no request fails, every add of the durable counter is counted once, and every tenant's counter
 *     answers from the new version.</li>
 * <li>A fourth node joins under a steady load (two clients per tenant, requests continuously in flight),
 *     catches up with the plugin and the tenant files, and takes tenants over: no request fails, every add
 *     of the durable counter is counted once (the totals told are exactly 1..N), and {@code troupe:cluster}
 *     lists the JOIN migrations with their pauses.</li>
 * <li>The node serving most tenants is stopped with {@code bin/troupe stop} under load: again no request
 *     fails and nothing is lost, and the LEAVE migrations are listed.</li>
 * <li>A tenant file removed on one node is gone on every node: its open session is ended, and a HELLO of it
 *     gets {@code auth.failed} at every node.</li>
 * <li>The node serving most tenants is killed with SIGKILL under load: its tenants come back on the
 *     survivors (CRASH migrations), the clients reconnect by themselves, idempotent requests in flight are
 *     sent again and none fails, and each durable counter holds every acknowledged add: what a crash may
 *     cost is only the adds whose outcome the client was told is unknown, counted.</li>
 * </ol>
 * Each step's figures (client-side gaps, migration pauses, unknown outcomes) are printed. When a step fails,
 * the tail of every node's log is printed.
 *
 * <p><b>Threading:</b> JUnit's thread drives the scenario; the load has threads of its own
 * ({@link ClusterLoad}); each node's output is read by {@link TroupeProcess}'s threads.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterIT {

    private static final Duration SYNCED = Duration.ofSeconds(60);
    private static final Duration SETTLED = Duration.ofSeconds(60);
    private static final Duration PROGRESS = Duration.ofSeconds(60);
    private static final Duration REPLY = Duration.ofSeconds(20);
    private static final List<String> TENANTS = List.of("acme", "globex", "initech", "umbrella", "hooli", "stark");
    private static final int CLIENTS_PER_TENANT = 2;
    private static final int WINDOW = 2;
    /** Adds acknowledged per tenant before an event, and again after it: the load really runs through it. */
    private static final long STEADY_ACKS = 25;
    /** How many times the fourth node joins, at most, until it takes a tenant (partitions are placed at random). */
    private static final int JOIN_ATTEMPTS = 4;
    private static final String MIGRATIONS_DONE = "All migration tasks have been completed";

    @RegisterExtension
    final LogsOnFailure logsOnFailure = new LogsOnFailure();

    /** Static: JUnit fills an instance field only before each test method, after {@link #formCluster}. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private final Map<String, TenantLedger> ledgers = new LinkedHashMap<>();
    private ClusterNodes nodes;
    private ClientLoop loop;
    private ClusterLoad load;
    private boolean broken;

    @BeforeAll
    void formCluster() throws Exception {
        // the first three know each other; the fourth, which joins later, knows all four
        nodes = ClusterNodes.install(dir, 4, 3, "it");
        loop = ClientLoop.create("cluster-it", 1);
        nodes.start(nodes.all().subList(0, 3));
        TestTenants tenants = new TestTenants(nodes.get(0).home(), nodes.get(0).clientPort());
        for (String tenant : TENANTS) {
            tenants.write(tenant);
            ledgers.put(tenant, new TenantLedger(tenant));
        }
        for (ClusterNode node : live()) {
            Await.until("the tenant files on " + node, SYNCED, () -> TENANTS.stream()
                    .allMatch(tenant -> Files.exists(tenantFile(node, tenant))),
                    () -> list(node.home().resolve("etc")));
        }
    }

    @AfterAll
    void stopCluster() throws Exception {
        try {
            if (load != null) {
                load.close();
            }
        } finally {
            if (loop != null) {
                loop.close();
            }
            if (nodes != null) {
                nodes.close();
            }
        }
    }

    @BeforeEach
    void scenarioIntact() {
        assumeFalse(broken, "an earlier step of the scenario failed");
    }

    @Test
    @Order(1)
    void eachTenantIsServedByExactlyOneNodeWhicheverNodeItsClientsReach() throws Exception {
        Map<String, String> owners = awaitOwners();
        System.out.println("[cluster] owners with 3 nodes: " + owners);

        Map<String, List<String>> expected = new TreeMap<>();
        owners.forEach((tenant, owner) -> expected.put(tenant, List.of(owner)));
        for (ClusterNode node : live()) {
            Await.until("troupe:cluster on " + node + " lists each tenant under its owner alone", SETTLED,
                    () -> node.clusterTable().servedBy().equals(expected), () -> node.clusterTable().toString());
        }

        runLoad("steady, 3 nodes", () -> { });
        checkCounters(false);
    }

    @Test
    @Order(2)
    void aPluginCopiedIntoOneNodesDeployFolderServesOnEveryNode() throws Exception {
        Path burn = Path.of(System.getProperty("troupe.burnPlugin"));
        assertTrue(Files.isRegularFile(burn), "no burn plugin at " + burn + " (troupe.burnPlugin)");
        copyInto(burn, nodes.get(1).home().resolve("deploy/burn.jar"));
        byte[] jar = Files.readAllBytes(burn);
        for (ClusterNode node : live()) {
            awaitBurnPlugin(node, jar);
        }
        try (TenantClients clients = new TenantClients()) {
            for (String tenant : TENANTS) {
                assertEquals("250", request(clients.of(tenant), "burn", "250"), "burn for " + tenant);
            }
        }
        System.out.println("[cluster] burn answered on every node and for every tenant; owners " + awaitOwners());
    }

    @Test
    @Order(3)
    void aJarRefusedOnOneNodeIsReportedAndRolledBackOnEveryNode() throws Exception {
        // a jar with no manifest: no host can install it, and the first to refuse it rolls it back everywhere
        Path built = Files.createTempFile("not-a-bundle", ".jar");
        try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(built))) {
            zip.putNextEntry(new ZipEntry("hello.txt"));
            zip.write("no manifest here".getBytes(UTF_8));
            zip.closeEntry();
        }
        copyInto(built, nodes.get(0).home().resolve("deploy/not-a-bundle.jar"));
        Files.delete(built);
        Await.until("the refused jar reported", Duration.ofSeconds(60), () -> {
            for (ClusterNode node : live()) {
                if (node.log().contains("Plugin deploy/not-a-bundle.jar version 1 failed on node")) {
                    return true;
                }
            }
            return false;
        }, () -> "no node logged it");
        for (ClusterNode node : live()) {
            Path copy = node.home().resolve("deploy/not-a-bundle.jar");
            Await.until("the refused jar gone from " + node, Duration.ofSeconds(60), () -> !Files.exists(copy),
                    () -> copy + " still there");
        }
        System.out.println("[cluster] a jar no node can install was rolled back (removed) on every node");
    }

    @Test
    @Order(4)
    void aPluginUpdatedOnOneNodeIsHotSwappedOnEveryNodeUnderLoadWithoutLosingARequest() throws Exception {
        ClusterNode first = live().get(0);
        Path v2 = first.home().resolve("samples/counter-2.0.0.jar");
        assertTrue(Files.isRegularFile(v2), "no " + v2);
        String swapped = "Plugin deploy/counter.jar: io.troupe.sample.counter updated from 1.0.0 to 2.0.0";
        runLoad("hot swap of the counter to 2.0.0 from " + first, () -> {
            copyInto(v2, first.home().resolve("deploy/counter.jar"));
            for (ClusterNode node : live()) {
                Await.until("the counter swapped on " + node, Duration.ofSeconds(60),
                        () -> node.log().contains(swapped), () -> node.logTail(5));
            }
        });
        checkCounters(false); // every add counted once across the swap, on every node
        try (TenantClients clients = new TenantClients()) {
            for (String tenant : TENANTS) {
                assertEquals("2.0.0", request(clients.of(tenant), "counter.version", ""), "the counter of " + tenant);
            }
        }
        System.out.println("[cluster] the counter was hot-swapped to 2.0.0 on every node under load");
    }

    @Test
    @Order(5)
    void aFourthNodeJoiningUnderLoadTakesTenantsWithoutLosingARequest() throws Exception {
        ClusterNode fourth = nodes.get(3);
        Map<String, String> ownersBefore = awaitOwners();
        Map<String, String> owners = Map.of();
        for (int attempt = 1; attempt <= JOIN_ATTEMPTS; attempt++) {
            int done = migrationsDone();
            Map<String, String> joined = new TreeMap<>();
            runLoad("join of " + fourth + " (attempt " + attempt + ")", () -> {
                fourth.launch();
                fourth.awaitReady();
                nodes.awaitCluster(live());
                // Hazelcast moves partitions once the member is in; ownership has settled when it says so
                Await.until("Hazelcast's migrations after the join", SETTLED, () -> migrationsDone() > done,
                        () -> "no new '" + MIGRATIONS_DONE + "' in any log");
                joined.putAll(awaitOwners());
            });
            owners = joined;
            checkCounters(false);
            if (owners.containsValue(fourth.address())) {
                break;
            }
            System.out.println("[cluster] " + fourth + " took none of the tenants: " + owners + "; it leaves and "
                    + "joins again");
            assertTrue(attempt < JOIN_ATTEMPTS, fourth + " took no tenant in " + JOIN_ATTEMPTS + " joins: " + owners);
            fourth.stopGracefully();
            nodes.awaitCluster(live());
        }
        System.out.println("[cluster] owners with 4 nodes: " + owners);

        // the late joiner caught up with the plugin and the tenant files
        awaitBurnPlugin(fourth, Files.readAllBytes(Path.of(System.getProperty("troupe.burnPlugin"))));
        for (String tenant : TENANTS) {
            assertTrue(Files.exists(tenantFile(fourth, tenant)), tenant + "'s file on " + fourth);
        }
        assertMigrations(fourth, tenantsOf(owners, fourth), "JOIN", ownersBefore, owners);
    }

    @Test
    @Order(6)
    void aNodeStoppedGracefullyUnderLoadHandsItsTenantsOverWithoutLosingARequest() throws Exception {
        Map<String, String> owners = awaitOwners();
        ClusterNode leaving = busiest(owners);
        List<String> itsTenants = tenantsOf(owners, leaving);
        System.out.println("[cluster] stopping " + leaving + ", which serves " + itsTenants);
        runLoad("graceful stop of " + leaving, leaving::stopGracefully);
        checkCounters(false);
        Map<String, String> after = awaitOwners();
        System.out.println("[cluster] owners after the stop: " + after);
        assertFalse(after.containsValue(leaving.address()), "a stopped node still owns tenants: " + after);
        assertMigrations(live().get(0), itsTenants, "LEAVE", owners, after);
    }

    @Test
    @Order(7)
    void aTenantFileRemovedOnOneNodeIsGoneOnEveryNode() throws Exception {
        String gone = TENANTS.get(TENANTS.size() - 1);
        Map<String, String> owners = awaitOwners();
        ClusterNode owner = nodes.byAddress(owners.get(gone));
        ClusterNode elsewhere = live().stream().filter(node -> node != owner).findFirst().orElseThrow();
        try (WireClient session = WireClient.connect(owner.clientPort())) {
            Frame welcome = session.hello(gone, TestTenants.TOKEN, REPLY);
            assertEquals(FrameType.WELCOME, welcome.type(), welcome::toString);

            Files.delete(tenantFile(elsewhere, gone));
            for (ClusterNode node : live()) {
                Await.until(gone + "'s file gone from " + node, SYNCED, () -> !Files.exists(tenantFile(node, gone)),
                        () -> list(node.home().resolve("etc")));
            }
            Optional<Frame> ended = session.next(SYNCED);
            assertTrue(ended.isEmpty() || ended.get().type() == FrameType.BYE,
                    () -> "the session of the removed tenant got " + ended + " instead of its end");
        }
        for (ClusterNode node : live()) {
            Await.until("a HELLO of " + gone + " refused with auth.failed by " + node, SYNCED, () -> {
                Frame answer = ClusterNodes.hello(node, gone);
                return answer.type() == FrameType.ERROR && ErrorCode.AUTH_FAILED.code().equals(answer.name());
            }, () -> "still not refused");
        }
        ledgers.remove(gone);
    }

    @Test
    @Order(8)
    void aKilledNodesTenantsComeBackOnTheSurvivorsWithEveryAcknowledgedAdd() throws Exception {
        Map<String, String> owners = awaitOwners();
        ClusterNode victim = busiest(owners);
        List<String> itsTenants = tenantsOf(owners, victim);
        System.out.println("[cluster] killing " + victim + ", which serves " + itsTenants);
        long unknownBefore = ledgers.values().stream().mapToLong(TenantLedger::unknown).sum();
        runLoad("kill -9 of " + victim, victim::kill);
        long unknown = ledgers.values().stream().mapToLong(TenantLedger::unknown).sum() - unknownBefore;
        long refused = ledgers.values().stream().mapToLong(TenantLedger::refused).sum();
        System.out.println("[cluster] the kill cost " + unknown + " adds of unknown outcome and " + refused
                + " refused while reconnecting (never sent)");
        checkCounters(true);
        Map<String, String> after = awaitOwners();
        System.out.println("[cluster] owners after the kill: " + after);
        assertFalse(after.containsValue(victim.address()), "a killed node still owns tenants: " + after);
        assertMigrations(live().get(0), itsTenants, "CRASH", owners, after);
    }

    // ---- steps --------------------------------------------------------------------------------------

    /** Something the test does while the load runs. */
    @FunctionalInterface
    private interface Event {
        void run() throws Exception;
    }

    /**
     * Starts the load on every tenant (clients given every live node), waits for {@link #STEADY_ACKS} adds per
     * tenant, runs {@code event}, waits for as many more, then stops the load (every request answered).
     */
    private void runLoad(String what, Event event) throws Exception {
        List<String> servers = live().stream().map(ClusterNode::address).toList();
        load = ClusterLoad.start(loop, ledgers, servers, CLIENTS_PER_TENANT, WINDOW);
        try {
            load.awaitProgress("steady load before the " + what, Map.of(), STEADY_ACKS, PROGRESS, false);
            Map<String, Long> before = load.acked();
            long started = System.nanoTime();
            System.out.println("[cluster] " + Instant.now() + " " + what + " begins");
            event.run();
            load.awaitProgress("load after the " + what, load.acked(), STEADY_ACKS, PROGRESS, true);
            load.stop();
            System.out.println("[cluster] " + what + " (" + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)
                    + " ms); adds acknowledged during it " + diff(before, load.acked()) + "\n" + load);
        } finally {
            load.close();
            load = null;
        }
    }

    /** Reads each tenant's counter and checks it against what its clients were told. */
    private void checkCounters(boolean lossAllowed) throws Exception {
        try (TenantClients clients = new TenantClients()) {
            for (TenantLedger ledger : ledgers.values()) {
                long stored = Long.parseLong(request(clients.of(ledger.tenant()), "counter.get", ""));
                ledger.check(stored, lossAllowed);
            }
        }
    }

    // ---- the cluster --------------------------------------------------------------------------------

    private List<ClusterNode> live() {
        return nodes.live();
    }

    private Map<String, String> awaitOwners() throws Exception {
        return nodes.awaitOwners(ledgers.keySet());
    }

    /** The live node serving most tenants (the first of them on a tie). */
    private ClusterNode busiest(Map<String, String> owners) {
        return nodes.busiest(owners);
    }

    private static List<String> tenantsOf(Map<String, String> owners, ClusterNode node) {
        return ClusterNodes.tenantsOf(owners, node);
    }

    /** How many times the live nodes' logs say Hazelcast completed its migrations. */
    private int migrationsDone() throws IOException {
        int count = 0;
        for (ClusterNode node : live()) {
            count += (int) node.log().lines().filter(line -> line.contains(MIGRATIONS_DONE)).count();
        }
        return count;
    }

    /**
     * {@code troupe:cluster} on {@code reporter} lists a finished migration of {@code cause} of each of
     * {@code tenants} from its owner in {@code before} to its owner in {@code after}, with its pause (printed).
     */
    private void assertMigrations(ClusterNode reporter, List<String> tenants, String cause, Map<String, String> before,
            Map<String, String> after) throws Exception {
        assertFalse(tenants.isEmpty(), "no tenant moved");
        Map<String, String> pauses = new TreeMap<>();
        String what = "troupe:cluster on " + reporter + " lists the " + cause + " migrations of " + tenants;
        Await.until(what, SETTLED, () -> {
            pauses.clear();
            for (ClusterTable.Migration migration : reporter.clusterTable().migrations()) {
                String tenant = migration.tenant();
                if (tenants.contains(tenant) && migration.cause().equals(cause) && migration.pauseMillis().isPresent()
                        && migration.from().equals(nodes.id(before.get(tenant)))
                        && migration.to().equals(nodes.id(after.get(tenant)))) {
                    pauses.put(tenant, migration.pauseMillis().getAsLong() + " ms");
                }
            }
            return pauses.keySet().containsAll(tenants);
        }, () -> "node ids " + nodes.ids() + "\n" + reporter.clusterTable());
        System.out.println("[cluster] " + cause + " migrations, with their pauses: " + pauses);
    }

    /** {@code deploy/burn.jar} on {@code node} holds {@code jar}, and the node's shell gets burn's answer. */
    private static void awaitBurnPlugin(ClusterNode node, byte[] jar) throws Exception {
        Path copy = node.home().resolve("deploy/burn.jar");
        Await.until("deploy/burn.jar on " + node, SYNCED, () -> Files.exists(copy), () -> list(copy.getParent()));
        assertArrayEquals(jar, Files.readAllBytes(copy), "deploy/burn.jar on " + node + " holds other bytes");
        Await.until("burn answering in " + node + "'s shell", SYNCED, () -> node.shell("ask burn 250").contains("250"),
                () -> String.join("\n", node.shell("ask burn 250")));
    }

    private static Path tenantFile(ClusterNode node, String tenant) {
        return node.home().resolve("etc/io.troupe.tenant-" + tenant + ".cfg");
    }

    /** Copies {@code source} to {@code target} under a hidden name first, then renames it: one whole file appears. */
    private static void copyInto(Path source, Path target) throws IOException {
        Path part = target.resolveSibling("." + target.getFileName() + ".part");
        Files.copy(source, part, StandardCopyOption.REPLACE_EXISTING);
        Files.move(part, target, StandardCopyOption.ATOMIC_MOVE);
    }

    // ---- small helpers ------------------------------------------------------------------------------

    /**
     * A connected client per tenant, given every live node's address, opened when first asked for.
     * <b>Threading:</b> the test thread.
     */
    private final class TenantClients implements AutoCloseable {

        private final Map<String, TroupeClient> clients = new TreeMap<>();

        TroupeClient of(String tenant) throws Exception {
            TroupeClient client = clients.get(tenant);
            if (client == null) {
                client = ClusterLoad.connect(loop, tenant, live().stream().map(ClusterNode::address).toList());
                clients.put(tenant, client);
            }
            return client;
        }

        @Override
        public void close() {
            clients.values().forEach(TroupeClient::close);
        }
    }

    private static String request(TroupeClient client, String name, String content) throws Exception {
        byte[] reply = client.request(name, content.getBytes(UTF_8)).get(REPLY.toSeconds(), TimeUnit.SECONDS);
        return new String(reply, UTF_8);
    }

    private static Map<String, Long> diff(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Long> diff = new TreeMap<>();
        after.forEach((tenant, count) -> diff.put(tenant, count - before.getOrDefault(tenant, 0L)));
        return diff;
    }

    private static String list(Path folder) {
        try (var files = Files.list(folder)) {
            return folder + ": " + files.map(path -> path.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            return folder + ": unreadable (" + e + ")";
        }
    }

    /**
     * Marks the scenario broken when a step failed (the later steps are skipped) and prints the tail of every
     * node's log. <b>Threading:</b> JUnit's thread, after each test method.
     */
    private static final class LogsOnFailure implements AfterTestExecutionCallback {

        @Override
        public void afterTestExecution(ExtensionContext context) {
            if (context.getExecutionException().isEmpty()) {
                return;
            }
            context.getTestInstance().map(ClusterIT.class::cast).ifPresent(test -> {
                test.broken = true;
                if (test.nodes != null) {
                    test.nodes.all().forEach(node -> System.out.println(node.logTail(60)));
                }
            });
        }
    }
}
