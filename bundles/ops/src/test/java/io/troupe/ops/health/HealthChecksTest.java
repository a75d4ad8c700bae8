package io.troupe.ops.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

import io.troupe.api.monitor.RuntimeSnapshot;
import io.troupe.api.monitor.ThreadStats;
import io.troupe.api.monitor.WorkerPoolStats;

/**
 * The liveness and readiness checks over a fixed view of the runtime, and their JSON.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread.
 */
class HealthChecksTest {

    /** A runtime as the checks see it; each test changes what it needs. Immutable. */
    private record FixedView(int startLevel, boolean frameworkStopping, List<String> inactiveTroupeBundles,
                             Set<String> bundles, Optional<String> serverAddress, Optional<String> stateStore,
                             boolean clustered, Optional<String> clusterMembership, boolean runtimeRunning,
                             List<String> deadRuntimeThreads) implements RuntimeView {

        static FixedView ready() {
            return new FixedView(100, false, List.of(), Set.of("io.troupe.server", "io.troupe.store"),
                    Optional.of("127.0.0.1:7878"), Optional.of("/opt/troupe/data/state.mv.db"), false,
                    Optional.empty(), true, List.of());
        }

        @Override
        public int beginningStartLevel() {
            return 100;
        }

        @Override
        public boolean installed(String symbolicName) {
            return bundles.contains(symbolicName);
        }

        FixedView withStartLevel(int level) {
            return new FixedView(level, frameworkStopping, inactiveTroupeBundles, bundles, serverAddress, stateStore,
                    clustered, clusterMembership, runtimeRunning, deadRuntimeThreads);
        }

        FixedView withInactive(List<String> inactive) {
            return new FixedView(startLevel, frameworkStopping, inactive, bundles, serverAddress, stateStore,
                    clustered, clusterMembership, runtimeRunning, deadRuntimeThreads);
        }

        FixedView withServer(Optional<String> address, Set<String> installed) {
            return new FixedView(startLevel, frameworkStopping, inactiveTroupeBundles, installed, address, stateStore,
                    clustered, clusterMembership, runtimeRunning, deadRuntimeThreads);
        }

        FixedView withStore(Optional<String> file) {
            return new FixedView(startLevel, frameworkStopping, inactiveTroupeBundles, bundles, serverAddress, file,
                    clustered, clusterMembership, runtimeRunning, deadRuntimeThreads);
        }

        FixedView withCluster(boolean node, Optional<String> membership) {
            return new FixedView(startLevel, frameworkStopping, inactiveTroupeBundles, bundles, serverAddress,
                    stateStore, node, membership, runtimeRunning, deadRuntimeThreads);
        }

        FixedView withRuntime(boolean running, List<String> dead) {
            return new FixedView(startLevel, frameworkStopping, inactiveTroupeBundles, bundles, serverAddress,
                    stateStore, clustered, clusterMembership, running, dead);
        }

        FixedView stopping() {
            return new FixedView(startLevel, true, inactiveTroupeBundles, bundles, serverAddress, stateStore,
                    clustered, clusterMembership, runtimeRunning, deadRuntimeThreads);
        }
    }

    @Test
    void aStartedRuntimeThatListensWithItsStoreOpenIsReady() {
        HealthReport report = HealthChecks.ready(FixedView.ready());
        assertTrue(report.up());
        assertEquals(List.of("framework UP start level 100 of 100; every Troupe bundle active",
                "server UP listening on 127.0.0.1:7878", "store UP open: /opt/troupe/data/state.mv.db"),
                describe(report));
    }

    @Test
    void aServerThatListensNowhereMakesItNotReady() {
        HealthReport report = HealthChecks.ready(FixedView.ready().withServer(Optional.empty(),
                Set.of("io.troupe.server", "io.troupe.store")));
        assertFalse(report.up());
        assertEquals("server DOWN the message server listens nowhere (see log/troupe.log and "
                + "etc/io.troupe.server.cfg)", describe(report).get(1));
    }

    @Test
    void withoutAServerBundleTheServerCheckPasses() {
        HealthReport report = HealthChecks.ready(FixedView.ready().withServer(Optional.empty(),
                Set.of("io.troupe.store")));
        assertTrue(report.up());
        assertEquals("server UP no message server installed", describe(report).get(1));
    }

    @Test
    void aFrameworkStillStartingOrWithAnInactiveTroupeBundleIsNotReady() {
        assertEquals("framework DOWN starting: start level 6 of 100",
                describe(HealthChecks.ready(FixedView.ready().withStartLevel(6))).get(0));
        assertEquals("framework DOWN start level 100 of 100; not active: io.troupe.server (resolved, not started)",
                describe(HealthChecks.ready(FixedView.ready().withInactive(
                        List.of("io.troupe.server (resolved, not started)")))).get(0));
    }

    @Test
    void aClosedStoreMakesItNotReadyUnlessNoStoreIsInstalled() {
        assertFalse(HealthChecks.ready(FixedView.ready().withStore(Optional.empty())).up());
        HealthReport noStore = HealthChecks.ready(FixedView.ready().withStore(Optional.empty())
                .withServer(Optional.of("127.0.0.1:7878"), Set.of("io.troupe.server")));
        assertTrue(noStore.up());
    }

    @Test
    void theClusterIsCheckedOnAClusterNodeOnly() {
        assertEquals(3, HealthChecks.ready(FixedView.ready()).checks().size());
        HealthReport waiting = HealthChecks.ready(FixedView.ready().withCluster(true, Optional.empty()));
        assertFalse(waiting.up());
        assertEquals("cluster DOWN this node has not joined its cluster", describe(waiting).get(3));
        HealthReport joined = HealthChecks.ready(FixedView.ready().withCluster(true,
                Optional.of("troupe as node-1, 3 members")));
        assertTrue(joined.up());
        assertEquals("cluster UP joined troupe as node-1, 3 members", describe(joined).get(3));
    }

    @Test
    void livenessHoldsWhileStartingAndFailsOnADeadRuntimeThreadOrAStoppingFramework() {
        assertTrue(HealthChecks.live(FixedView.ready().withStartLevel(3).withRuntime(false, List.of())).up());
        assertTrue(HealthChecks.live(FixedView.ready()).up());
        HealthReport dead = HealthChecks.live(FixedView.ready().withRuntime(true, List.of("troupe-io-2")));
        assertFalse(dead.up());
        assertEquals("runtime DOWN runtime threads died: troupe-io-2", describe(dead).get(1));
        assertFalse(HealthChecks.live(FixedView.ready().stopping()).up());
    }

    @Test
    void writesTheReportAsJson() throws Exception {
        HealthReport report = HealthChecks.ready(FixedView.ready().withServer(Optional.empty(),
                Set.of("io.troupe.server", "io.troupe.store")));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator json = new JsonFactory().createGenerator(out)) {
            report.write(json);
        }
        assertEquals("{\"status\":\"DOWN\",\"checks\":[{\"name\":\"framework\",\"status\":\"UP\",\"detail\":"
                + "\"start level 100 of 100; every Troupe bundle active\"},{\"name\":\"server\",\"status\":\"DOWN\","
                + "\"detail\":\"the message server listens nowhere (see log/troupe.log and "
                + "etc/io.troupe.server.cfg)\"},"
                + "{\"name\":\"store\",\"status\":\"UP\",\"detail\":\"open: /opt/troupe/data/state.mv.db\"}]}",
                out.toString(java.nio.charset.StandardCharsets.UTF_8));
    }

    @Test
    void theRuntimeThreadsWhoseThreadEndedAreDeadAsTheRuntimeSaysSo() {
        ThreadStats worker1 = new ThreadStats("troupe-worker-1", 0.5, 0, false, true);
        ThreadStats worker2 = new ThreadStats("troupe-worker-2", 0.0, 0, false, false);
        ThreadStats loop = new ThreadStats("troupe-io-1", 0.1, 0, false, false);
        RuntimeSnapshot snapshot = new RuntimeSnapshot(java.time.Instant.EPOCH,
                new WorkerPoolStats(2, 2, 4, 0, 0, 0, 0.25, List.of(worker2, worker1)), List.of(loop), 0.1, 0, 0, 0,
                0, 0, List.of());

        assertEquals(List.of("troupe-io-1", "troupe-worker-2"), OsgiRuntimeView.dead(snapshot));
        assertEquals(List.of(), OsgiRuntimeView.dead(new RuntimeSnapshot(java.time.Instant.EPOCH,
                new WorkerPoolStats(1, 1, 4, 0, 0, 0, 0.0, List.of(worker1)), List.of(), 0.0, 0, 0, 0, 0, 0,
                List.of())));
    }

    private static List<String> describe(HealthReport report) {
        return report.checks().stream().map(check -> check.name() + " " + check.status() + " " + check.detail())
                .toList();
    }
}
