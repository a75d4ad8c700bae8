package io.troupe.distribution;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import io.troupe.client.ClientLoop;
import io.troupe.distribution.history.ChatChecker;
import io.troupe.distribution.history.ChatWorkload;
import io.troupe.distribution.history.CheckReport;
import io.troupe.distribution.history.CounterChecker;
import io.troupe.distribution.history.CounterWorkload;
import io.troupe.distribution.history.DurabilityPromise;
import io.troupe.distribution.history.Faults;
import io.troupe.distribution.history.History;
import io.troupe.distribution.history.Progress;
import io.troupe.distribution.history.TenantConnector;

/**
 * The durable {@code counter} and {@code chat} samples on a cluster of three real distribution processes,
 * checked by their history as {@link HistoryIT} checks one server: clients given every node's address add to
 * four tenants' counters and talk in two tenants' rooms, recording everything in one {@link History}, while
 * the node serving most tenants is killed with SIGKILL (its tenants come back on the survivors) and then
 * started again, joining the cluster. After a last read of every counter and
 * room, the checkers find zero violations of every-turn durability: every acknowledged add and message survives
 * the crash and the migrations, nothing appears twice or from nowhere, no value read goes back.
 *
 * <p>The history is kept in {@code target/histories/ClusterHistoryIT.history}. When the test fails, the tail
 * of every node's log is printed.
 *
 * <p><b>Threading:</b> JUnit's thread drives the faults; the workloads have threads of their own.
 */
class ClusterHistoryIT {

    private static final List<String> TENANTS = List.of("acme", "globex", "initech", "umbrella");
    private static final List<String> CHAT_TENANTS = List.of("acme", "globex");
    private static final List<String> ROOMS = List.of("lobby");
    private static final Duration SYNCED = Duration.ofSeconds(60);
    private static final Duration PROGRESS = Duration.ofSeconds(60);
    private static final long COUNTER_STEP = 100;
    private static final long CHAT_STEP = 10;

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void everyAcknowledgedOperationSurvivesANodeCrashAndItsRejoiningAndNothingElseAppears() throws Exception {
        Path file = Files.createDirectories(Path.of("target", "histories")).resolve("ClusterHistoryIT.history");
        List<CheckReport> reports;
        try (ClusterNodes nodes = ClusterNodes.install(dir, 3, 3, "history");
             Writer writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
             ClientLoop loop = ClientLoop.create("cluster-history-it", 1)) {
            try {
                reports = run(nodes, writer, loop);
            } catch (Exception | AssertionError e) {
                nodes.all().forEach(node -> System.out.println(node.logTail(60)));
                throw e;
            }
        }
        reports.forEach(report -> System.out.println("[cluster history] " + report));
        System.out.println("[cluster history] kept in " + file.toAbsolutePath());
        for (CheckReport report : reports) {
            assertTrue(report.valid(), report::toString);
        }
    }

    private static List<CheckReport> run(ClusterNodes nodes, Writer writer, ClientLoop loop) throws Exception {
        History history = new History(List.of(new CounterChecker(DurabilityPromise.everyTurn()),
                new ChatChecker(ChatChecker.SAMPLE_CAP)), writer);
        nodes.start(nodes.all());
        TestTenants tenants = new TestTenants(nodes.get(0).home(), nodes.get(0).clientPort());
        Map<String, String> tokens = new LinkedHashMap<>();
        for (String tenant : TENANTS) {
            tenants.write(tenant);
            tokens.put(tenant, TestTenants.TOKEN);
        }
        for (ClusterNode node : nodes.all()) {
            Await.until("the tenant files on " + node, SYNCED, () -> TENANTS.stream().allMatch(tenant -> Files.exists(
                    node.home().resolve("etc/io.troupe.tenant-" + tenant + ".cfg"))), () -> "not yet");
        }
        Map<String, String> owners = nodes.awaitOwners(TENANTS);
        System.out.println("[cluster history] owners with 3 nodes: " + owners);

        TenantConnector connector = new TenantConnector(loop, nodes.liveAddresses(), Duration.ofSeconds(40),
                Duration.ofSeconds(60));
        Map<String, String> chatTokens = new LinkedHashMap<>(tokens);
        chatTokens.keySet().retainAll(CHAT_TENANTS);
        try (CounterWorkload counter = CounterWorkload.start(history, connector, tokens,
                new CounterWorkload.Settings(2, 2, 40, 10), null);
             ChatWorkload chat = ChatWorkload.start(history, connector, chatTokens, ROOMS,
                new ChatWorkload.Settings(2, 10, 5))) {
            progress(counter, chat, "before the crash");

            ClusterNode victim = busiest(nodes, owners);
            System.out.println("[cluster history] killing " + victim + ", which serves "
                    + ClusterNodes.tenantsOf(owners, victim));
            history.fault(Faults.NODE_CRASH, victim.name(), "SIGKILL; it served " + ClusterNodes.tenantsOf(owners,
                    victim));
            victim.kill();
            System.out.println("[cluster history] owners after the crash: " + nodes.awaitOwners(TENANTS));
            progress(counter, chat, "after the crash");

            victim.launch();
            victim.awaitReady();
            nodes.awaitCluster(nodes.all());
            history.fault(Faults.NODE_JOIN, victim.name(), "back in the cluster");
            System.out.println("[cluster history] owners after the join: " + nodes.awaitOwners(TENANTS));
            progress(counter, chat, "after the join");

            counter.stop();
            chat.stop();
            System.out.println("[cluster history] " + counter + "; " + chat);
        }
        CounterWorkload.finalReads(history, connector, tokens);
        ChatWorkload.finalReads(history, connector, chatTokens, ROOMS);
        return history.finish();
    }

    /** The live node serving most tenants. */
    private static ClusterNode busiest(ClusterNodes nodes, Map<String, String> owners) {
        ClusterNode busiest = null;
        for (ClusterNode node : nodes.live()) {
            if (busiest == null || ClusterNodes.tenantsOf(owners, node).size()
                    > ClusterNodes.tenantsOf(owners, busiest).size()) {
                busiest = node;
            }
        }
        return busiest;
    }

    private static void progress(CounterWorkload counter, ChatWorkload chat, String when) {
        Progress.await(when, counter, COUNTER_STEP, chat, CHAT_STEP, PROGRESS);
    }
}
