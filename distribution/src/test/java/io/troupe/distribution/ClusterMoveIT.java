package io.troupe.distribution;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import io.troupe.client.ClientLoop;
import io.troupe.client.TroupeClient;
import io.troupe.distribution.plugins.TallyPlugin;

/**
 * What a graceful move carries (issue 17), on two real distribution processes: a tenant whose node is stopped
 * with {@code bin/troupe stop} arrives on the other node with its actors' state, although they are not durable
 * (the hot swap's {@code exportState}/{@code importState}, through the state store), and with every one-way SEND
 * the old node had read processed first, though they were still waiting in the actor's mailbox when the stop
 * began.
 *
 * <p>The tally test plugin ({@link TallyPlugin}) keeps a total in memory and takes a few milliseconds per add.
 * Each tenant's client adds by requests, then sends a burst of one-way adds and a PING: its PONG says the node
 * read every add before it (the session reads in order), while the tally still has most of them to do. The node
 * serving most tenants is stopped at once. Every tenant's tally must then answer the exact sum, wherever it is.
 *
 * <p><b>Threading:</b> JUnit's thread; the clients share one loop of their own.
 */
class ClusterMoveIT {

    private static final List<String> TENANTS = List.of("acme", "globex", "initech", "umbrella");
    private static final Duration SYNCED = Duration.ofSeconds(60);
    private static final Duration REPLY = Duration.ofSeconds(30);
    private static final int REQUESTED_ADDS = 10;
    /** One-way adds per tenant: about 1.5 s of its tally's time, still queued when the stop begins. */
    private static final int SENT_ADDS = 500;

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void aNodeStoppedGracefullyHandsItsTenantsOverWithTheStateOfActorsThatAreNotDurableAndEveryMessageItRead()
            throws Exception {
        try (ClusterNodes nodes = ClusterNodes.install(dir, 2, 2, "move");
             ClientLoop loop = ClientLoop.create("cluster-move-it", 1)) {
            nodes.start(nodes.all());
            TestTenants tenants = new TestTenants(nodes.get(0).home(), nodes.get(0).clientPort());
            for (String tenant : TENANTS) {
                tenants.write(tenant);
            }
            TallyPlugin.deployTo(nodes.get(0).home().resolve("deploy"), "tally.jar");
            for (ClusterNode node : nodes.all()) {
                Await.until("the tenant files and the tally plugin on " + node, SYNCED, () ->
                        Files.exists(node.home().resolve("deploy/tally.jar")) && TENANTS.stream().allMatch(
                                tenant -> Files.exists(node.home().resolve("etc/io.troupe.tenant-" + tenant + ".cfg"))),
                        () -> node.toString());
            }
            Map<String, String> owners = nodes.awaitOwners(TENANTS);
            ClusterNode leaving = nodes.busiest(owners);
            List<String> moving = ClusterNodes.tenantsOf(owners, leaving);
            System.out.println("[move] owners " + owners + "; stopping " + leaving + ", which serves " + moving);

            Map<String, TroupeClient> clients = new TreeMap<>();
            try {
                for (String tenant : TENANTS) {
                    TroupeClient client = ClusterLoad.connect(loop, tenant, nodes.liveAddresses());
                    clients.put(tenant, client);
                    Await.until("the tally answering for " + tenant, SYNCED, () -> answers(client),
                            () -> tenant);
                    for (int i = 1; i <= REQUESTED_ADDS; i++) {
                        assertEquals(Long.toString(i), request(client, TallyPlugin.ADD, "1"), tenant);
                    }
                }
                List<CompletableFuture<?>> read = new ArrayList<>();
                for (TroupeClient client : clients.values()) {
                    for (int i = 0; i < SENT_ADDS; i++) {
                        client.send(TallyPlugin.BUMP, "1".getBytes(UTF_8));
                    }
                    read.add(client.ping()); // its PONG: every add before it was read
                }
                CompletableFuture.allOf(read.toArray(CompletableFuture[]::new)).get(REPLY.toSeconds(), TimeUnit.SECONDS);
                long stopping = System.nanoTime();
                leaving.stopGracefully();
                System.out.println("[move] " + leaving + " stopped in "
                        + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopping) + " ms");

                String expected = Long.toString(REQUESTED_ADDS + SENT_ADDS);
                for (Map.Entry<String, TroupeClient> entry : clients.entrySet()) {
                    assertEquals(expected, request(entry.getValue(), TallyPlugin.GET, ""),
                            "the tally of " + entry.getKey() + (moving.contains(entry.getKey()) ? ", moved" : ", not moved"));
                }
            } finally {
                clients.values().forEach(TroupeClient::close);
            }
            ClusterNode staying = nodes.live().get(0);
            for (String tenant : moving) {
                String arrival = "Tenant '" + tenant + "': 1 actor(s) that are not durable arrive with their state";
                Await.until("the arrival of " + tenant + "'s tally in " + staying + "'s log", SYNCED,
                        () -> staying.log().contains(arrival), () -> arrival);
            }
            assertFalse(leaving.log().contains("incompletely"), "every release drained: " + leaving.log());
        }
    }

    private static boolean answers(TroupeClient client) {
        try {
            request(client, TallyPlugin.GET, "");
            return true;
        } catch (Exception notYet) {
            return false; // the plugin is not installed on the tenant's node yet
        }
    }

    private static String request(TroupeClient client, String name, String content) throws Exception {
        return new String(client.request(name, content.getBytes(UTF_8)).get(REPLY.toSeconds(), TimeUnit.SECONDS),
                UTF_8);
    }
}
