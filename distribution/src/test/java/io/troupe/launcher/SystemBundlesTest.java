package io.troupe.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The install plan for system/: order, start levels, phases, and what makes it fail.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread.
 */
class SystemBundlesTest {

    @TempDir
    Path dir;

    private InstallLayout layout;

    @BeforeEach
    void install() throws Exception {
        layout = TestInstall.layout(dir, "");
        TestInstall.systemBundles(layout.system());
    }

    @Test
    void installsByRoleInAFixedOrderWhateverTheFileNames() throws Exception {
        TestInstall.bundle(layout.system().resolve("aaa-extra.jar"), "com.example.extra", "2.0.0");

        List<SystemBundles.Planned> plan = SystemBundles.plan(layout, ConsoleMode.TTY);

        assertEquals(List.of(
                "org.apache.felix.log 1 CORE",
                "org.osgi.util.function 1 CORE",
                "org.osgi.util.promise 1 CORE",
                "org.osgi.service.component 1 CORE",
                "org.apache.felix.configadmin 1 CORE",
                "org.apache.felix.metatype 1 CORE",
                "org.apache.felix.scr 1 CORE",
                "org.apache.felix.fileinstall 2 CORE",
                "org.apache.felix.gogo.runtime 2 CORE",
                "org.apache.felix.gogo.command 2 CORE",
                "io.troupe.api 5 CORE",
                "io.troupe.host 5 CORE",
                "io.troupe.protocol 5 CORE",
                "com.example.extra 20 CORE",
                "io.troupe.shell 30 CONSOLE",
                "io.troupe.server 85 SERVER",
                "org.jline 90 TERMINAL",
                "org.apache.felix.gogo.jline 90 TERMINAL"), describe(plan));
    }

    @Test
    void leavesTheTerminalBundlesOutInScriptMode() throws Exception {
        List<SystemBundles.Planned> plan = SystemBundles.plan(layout, ConsoleMode.SCRIPT);

        assertTrue(plan.stream().noneMatch(planned -> planned.phase() == SystemBundles.Phase.TERMINAL), plan::toString);
        assertEquals(15, plan.size());
    }

    @Test
    void runsWithoutTheServerBundle() throws Exception {
        Files.delete(layout.system().resolve("troupe-server-0.1.0.jar"));

        List<SystemBundles.Planned> plan = SystemBundles.plan(layout, ConsoleMode.SCRIPT);

        assertTrue(plan.stream().noneMatch(planned -> planned.phase() == SystemBundles.Phase.SERVER), plan::toString);
        assertEquals(14, plan.size());
    }

    @Test
    void startsTheStateStoreAndH2BeforeTheHostSoThatTheyStopAfterIt() throws Exception {
        TestInstall.bundle(layout.system().resolve("h2-2.5.252.jar"), "com.h2database", "2.5.252");
        TestInstall.bundle(layout.system().resolve("troupe-store-0.1.0.jar"), "io.troupe.store", "0.1.0");

        List<String> plan = describe(SystemBundles.plan(layout, ConsoleMode.SCRIPT));

        assertEquals(List.of("io.troupe.api 5 CORE", "com.h2database 5 CORE", "io.troupe.store 5 CORE",
                "io.troupe.host 5 CORE", "io.troupe.protocol 5 CORE"), plan.subList(10, 15));
        assertEquals(17, plan.size());
    }

    @Test
    void startsTheHttpStackBeforeTheRuntimeAndTheOpsBundleRightAfterTheHost() throws Exception {
        TestInstall.bundle(layout.system().resolve("troupe-ops-0.1.0.jar"), "io.troupe.ops", "0.1.0");
        TestInstall.bundle(layout.system().resolve("org.apache.felix.http.jetty12-1.1.8.jar"),
                "org.apache.felix.http.jetty12", "1.1.8");
        TestInstall.bundle(layout.system().resolve("commons-fileupload-1.6.0.jar"),
                "org.apache.commons.commons-fileupload", "1.6.0");
        TestInstall.bundle(layout.system().resolve("commons-io-2.21.0.jar"), "org.apache.commons.commons-io", "2.21.0");
        TestInstall.bundle(layout.system().resolve("org.apache.felix.http.servlet-api-6.1.0.jar"),
                "org.apache.felix.http.servlet-api", "6.1.0");

        List<String> plan = describe(SystemBundles.plan(layout, ConsoleMode.SCRIPT));

        assertEquals(List.of("org.apache.felix.gogo.command 2 CORE", "org.apache.felix.http.servlet-api 3 CORE",
                "org.apache.commons.commons-io 3 CORE", "org.apache.commons.commons-fileupload 3 CORE",
                "org.apache.felix.http.jetty12 3 CORE", "io.troupe.api 5 CORE"), plan.subList(9, 15));
        assertEquals(List.of("io.troupe.protocol 5 CORE", "io.troupe.ops 6 CORE"), plan.subList(16, 18));
        assertEquals(20, plan.size());
    }

    @Test
    void installsHazelcastAndTheClusterOnlyOnAClusterNodeAndTheClusterAfterTheServer() throws Exception {
        TestInstall.bundle(layout.system().resolve("hazelcast-5.7.0.jar"), "com.hazelcast", "5.7.0");
        TestInstall.bundle(layout.system().resolve("troupe-cluster-0.1.0.jar"), "io.troupe.cluster", "0.1.0");

        List<String> alone = describe(SystemBundles.plan(layout, ConsoleMode.SCRIPT, false));
        List<String> clustered = describe(SystemBundles.plan(layout, ConsoleMode.SCRIPT, true));

        assertEquals(15, alone.size(), alone::toString);
        assertTrue(alone.stream().noneMatch(line -> line.contains("hazelcast") || line.contains("cluster")), alone::toString);
        assertEquals(17, clustered.size(), clustered::toString);
        assertTrue(clustered.contains("com.hazelcast 20 CORE"), clustered::toString);
        assertEquals(List.of("io.troupe.server 85 SERVER", "io.troupe.cluster 86 SERVER"),
                clustered.subList(clustered.size() - 2, clustered.size()));
    }

    @Test
    void namesAJarInSystemThatIsNotABundle() throws Exception {
        TestInstall.plainJar(layout.system().resolve("plain.jar"));

        LauncherException e = assertThrows(LauncherException.class, () -> SystemBundles.plan(layout, ConsoleMode.SCRIPT));

        assertEquals("system bundle system/plain.jar is unusable:"
                + " not an OSGi bundle (its manifest has no Bundle-SymbolicName)", e.getMessage());
    }

    @Test
    void namesARequiredBundleThatIsMissing() throws Exception {
        Files.delete(layout.system().resolve("troupe-host-0.1.0.jar"));

        LauncherException e = assertThrows(LauncherException.class, () -> SystemBundles.plan(layout, ConsoleMode.SCRIPT));

        assertEquals("no bundle io.troupe.host in system: the installation is incomplete", e.getMessage());
    }

    @Test
    void refusesTwoSystemBundlesWithTheSameName() throws Exception {
        TestInstall.bundle(layout.system().resolve("troupe-host-0.2.0.jar"), "io.troupe.host", "0.2.0");

        LauncherException e = assertThrows(LauncherException.class, () -> SystemBundles.plan(layout, ConsoleMode.SCRIPT));

        assertEquals("two system bundles are named io.troupe.host: system/troupe-host-0.1.0.jar"
                + " and system/troupe-host-0.2.0.jar; remove one", e.getMessage());
    }

    private static List<String> describe(List<SystemBundles.Planned> plan) {
        return plan.stream()
                .map(planned -> planned.jar().symbolicName() + " " + planned.startLevel() + " " + planned.phase())
                .toList();
    }
}
