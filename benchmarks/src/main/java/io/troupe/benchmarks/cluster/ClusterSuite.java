package io.troupe.benchmarks.cluster;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

import io.troupe.benchmarks.net.DistributionLocator;
import io.troupe.client.TroupeClient;
import io.troupe.client.TroupeClientException;

/**
 * A Troupe cluster under a steady load while a node joins, another leaves and a third dies (issue 17): three copies
 * of the distribution on loopback form a cluster ({@link BenchNode}), {@code --tenants} tenants (12) share a
 * paced load of {@code --rate} requests/s ({@link SteadyLoad}: the durable counter's {@code counter.add 1},
 * every-turn durable, on two connections per tenant); after a warm-up and a steady phase a fourth node is
 * started and joins, and after another phase the original node serving most tenants is stopped with
 * {@code bin/troupe stop}; after a third phase the remaining node serving most tenants is killed ({@code kill -9});
 * a last phase follows.
 *
 * <p>The report: requests/s, p99 latency and errors for each second of the run, with the events; the pause
 * of each moved tenant, p50/p99/max, as its clients saw it (the longest gap between two answers of a tenant
 * whose clients were redirected, from the event to the next one) and as the cluster logged it (the new
 * owner's "unserved for" time, from the old owner's pause to its own start); the longest gap of the tenants
 * that did not move, for comparison; and whether every acknowledged add is in the stored counters (the adds in
 * flight on the killed node fail, as the client sends no request again that is not idempotent: each may or may
 * not have been applied, so a stored total may exceed the acknowledged adds by at most those).
 *
 * <pre>
 * java -cp benchmarks.jar io.troupe.benchmarks.cluster.ClusterSuite [--quick] [--distribution DIR]
 *      [--tenants 12] [--clients 2] [--rate 300] [--window 8] [--warmup 10s] [--phase 20s]
 *      [--jvm-opts "-Xms256m -Xmx512m"] [--keep-logs DIR]
 * </pre>
 *
 * <p>Exit status 0 when no request failed and every acknowledged add is stored, 1 otherwise or when the
 * cluster did not form, 64 for a bad command line.
 *
 * <p><b>Threading:</b> runs on the main thread; the load has threads of its own.
 */
public final class ClusterSuite {

    private static final int NODES = 4;

    private ClusterSuite() {
    }

    public static void main(String[] args) throws InterruptedException {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the suite; returns the exit status. */
    static int run(String[] args, PrintStream out, PrintStream err) throws InterruptedException {
        ClusterOptions options;
        try {
            options = ClusterOptions.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("ClusterSuite: " + e.getMessage());
            return 64;
        }
        Path distribution;
        try {
            distribution = DistributionLocator.locate(options.distribution());
        } catch (IllegalStateException e) {
            err.println("ClusterSuite: " + e.getMessage());
            return 1;
        }
        String token = HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
        List<String> tenants = new ArrayList<>();
        for (int i = 1; i <= options.tenants(); i++) {
            tenants.add(String.format("tenant-%02d", i));
        }
        Path work = null;
        List<BenchNode> nodes = new ArrayList<>();
        try {
            work = Files.createTempDirectory("troupe-cluster-");
            List<Integer> clusterPorts = new ArrayList<>();
            List<Integer> clientPorts = new ArrayList<>();
            while (clusterPorts.size() < NODES) {
                int cluster = freePort();
                int client = freePort();
                if (cluster != client && !clusterPorts.contains(cluster) && !clientPorts.contains(client)
                        && !clusterPorts.contains(client) && !clientPorts.contains(cluster)) {
                    clusterPorts.add(cluster);
                    clientPorts.add(client);
                }
            }
            for (int i = 0; i < NODES; i++) {
                nodes.add(BenchNode.install(distribution, work, "node" + (i + 1), clientPorts.get(i),
                        clusterPorts.get(i), i < 3 ? clusterPorts.subList(0, 3) : clusterPorts));
            }
            err.println("ClusterSuite: distribution " + distribution + "; " + tenants.size() + " tenants, "
                    + options.clientsPerTenant() + " connections each, " + options.rate() + " requests/s in all; "
                    + "node JVM options: " + options.jvmOptions());
            List<BenchNode> first = nodes.subList(0, 3);
            for (BenchNode node : first) {
                node.launch(options.jvmOptions());
            }
            for (BenchNode node : first) {
                node.awaitJoined(3);
            }
            err.println("ClusterSuite: three nodes form the cluster");
            Path etc = nodes.get(0).home().resolve("etc");
            for (String tenant : tenants) {
                Path part = etc.resolve("." + tenant + ".part");
                Files.writeString(part, "token = " + token + "\n", StandardCharsets.UTF_8);
                Files.move(part, etc.resolve("io.troupe.tenant-" + tenant + ".cfg"), StandardCopyOption.ATOMIC_MOVE);
            }
            return measure(options, nodes, tenants, token, out, err);
        } catch (Exception e) {
            err.println("ClusterSuite: failed: " + e);
            for (BenchNode node : nodes) {
                printProblems(node, err);
            }
            return 1;
        } finally {
            nodes.forEach(BenchNode::close);
            if (options.keepLogs() != null) {
                keepLogs(nodes, Path.of(options.keepLogs()), err);
            }
            if (work != null) {
                delete(work);
            }
        }
    }

    private static int measure(ClusterOptions options, List<BenchNode> nodes, List<String> tenants, String token,
            PrintStream out, PrintStream err) throws Exception {
        List<String> servers = nodes.subList(0, 3).stream().map(BenchNode::address).toList();
        ClusterTimeline timeline = new ClusterTimeline();
        try (SteadyLoad load = SteadyLoad.start(tenants, token, servers, options.clientsPerTenant(), options.rate(),
                options.window())) {
            err.println("ClusterSuite: load started; warm-up " + options.warmup().toSeconds() + " s");
            Thread.sleep(options.warmup().toMillis());
            timeline.measured(load.now(), 3);
            err.println("ClusterSuite: steady with three nodes, " + options.phase().toSeconds() + " s");
            Thread.sleep(options.phase().toMillis());

            BenchNode joining = nodes.get(3);
            timeline.event(load.now(), joining.name() + " starts", 3);
            joining.launch(options.jvmOptions());
            joining.awaitJoined(4);
            timeline.event(load.now(), joining.name() + " joined", 4);
            err.println("ClusterSuite: " + joining.name() + " joined; " + options.phase().toSeconds() + " s");
            Thread.sleep(options.phase().toMillis());

            BenchNode leaving = busiest(nodes.subList(0, 3), tenants, token);
            timeline.event(load.now(), leaving.name() + " stops (bin/troupe stop)", 4);
            err.println("ClusterSuite: stopping " + leaving.name());
            leaving.stopGracefully();
            timeline.event(load.now(), leaving.name() + " gone", 3);
            err.println("ClusterSuite: " + leaving.name() + " stopped; " + options.phase().toSeconds() + " s");
            Thread.sleep(options.phase().toMillis());

            List<BenchNode> running = new ArrayList<>(nodes);
            running.remove(leaving);
            BenchNode killed = busiest(running, tenants, token);
            timeline.event(load.now(), killed.name() + ClusterReport.KILLED, 2);
            err.println("ClusterSuite: killing " + killed.name() + " (kill -9)");
            killed.kill();
            Thread.sleep(options.phase().toMillis());
            timeline.end(load.now());
            load.stop();

            Map<String, Long> stored = load.storedTotals();
            List<String> serverPauses = new ArrayList<>();
            for (BenchNode node : nodes) {
                serverPauses.addAll(node.logLines().stream().filter(line -> line.contains(" taken over from node "))
                        .toList());
            }
            ClusterReport report = new ClusterReport(options, timeline, load, stored, serverPauses);
            report.print(out);
            out.flush();
            if (report.problems().isEmpty()) {
                return 0;
            }
            err.println("ClusterSuite: " + String.join("; ", report.problems()));
            return 1;
        }
    }

    /**
     * The node of {@code candidates} that serves most of {@code tenants} now: each node is asked for each tenant
     * with a client that follows no redirect (WELCOME: it serves it; ERROR tenant.moved: another does).
     */
    private static BenchNode busiest(List<BenchNode> candidates, List<String> tenants, String token)
            throws InterruptedException {
        BenchNode busiest = candidates.get(0);
        int most = -1;
        for (BenchNode node : candidates) {
            int served = 0;
            for (String tenant : tenants) {
                try (TroupeClient probe = TroupeClient.builder().servers(node.address()).tenant(tenant).token(token)
                        .maxRedirects(0).reconnect(false).build()) {
                    probe.connect().get(30, TimeUnit.SECONDS);
                    served++;
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TroupeClientException)) {
                        throw new IllegalStateException(node + " did not answer a HELLO of " + tenant, e.getCause());
                    }
                } catch (TimeoutException e) {
                    throw new IllegalStateException(node + " did not answer a HELLO of " + tenant + " in 30 s", e);
                }
            }
            if (served > most) {
                most = served;
                busiest = node;
            }
        }
        return busiest;
    }

    /** Copies each node's {@code log/troupe.log} to {@code dir/<node>.log}. */
    private static void keepLogs(List<BenchNode> nodes, Path dir, PrintStream err) {
        try {
            Files.createDirectories(dir);
            for (BenchNode node : nodes) {
                Path log = node.home().resolve("log/troupe.log");
                if (Files.exists(log)) {
                    Files.copy(log, dir.resolve(node.name() + ".log"), StandardCopyOption.REPLACE_EXISTING);
                }
            }
            err.println("ClusterSuite: the nodes' logs are in " + dir);
        } catch (IOException e) {
            err.println("ClusterSuite: cannot keep the nodes' logs in " + dir + ": " + e);
        }
    }

    /** Prints the node's last WARN and ERROR lines, to explain a failure. */
    private static void printProblems(BenchNode node, PrintStream err) {
        try {
            List<String> problems = node.logLines().stream()
                    .filter(line -> line.contains(" WARN ") || line.contains(" ERROR ")).toList();
            err.println("ClusterSuite: " + node.name() + "'s WARN and ERROR lines:");
            problems.subList(Math.max(0, problems.size() - 20), problems.size())
                    .forEach(line -> err.println("  " + line));
        } catch (IOException | UncheckedIOException e) {
            err.println("ClusterSuite: cannot read " + node.name() + "'s log: " + e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static void delete(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }
}
