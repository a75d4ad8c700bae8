package io.troupe.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Bundle;

import io.troupe.client.deploy.DeployFolder;
import io.troupe.testsupport.HostStatus;
import io.troupe.testsupport.TestJars;

/**
 * Which bundles the {@code plugins} table shows, and what it says of each.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread.
 */
class PluginTableTest {

    @TempDir
    Path temp;

    private Path deploy;
    private DeployFolder folder;

    @BeforeEach
    void createFolder() throws IOException {
        deploy = Files.createDirectory(temp.resolve("deploy"));
        folder = new DeployFolder(deploy);
    }

    @Test
    void listsTheBundlesInstalledFromTheFolderWithTheNamesTheirActorFactoriesServe() throws Exception {
        Bundle wordcount = StubBundles.bundle(15, "io.troupe.sample.wordcount", "1.0.0", Bundle.ACTIVE,
                jar("wordcount.jar").toUri().toString(),
                StubBundles.actorFactory(Map.of("troupe.handler", "wordcount")),
                StubBundles.actorFactory(Map.of("troupe.factory", new String[] {"wordcount.chunk"})),
                StubBundles.service(new String[] {"java.lang.Runnable"}, Map.of("troupe.handler", "not.a.factory")));
        Bundle counter = StubBundles.bundle(14, "io.troupe.sample.counter", "2.0.0", Bundle.ACTIVE,
                jar("counter.jar").toString(),
                StubBundles.actorFactory(Map.of("troupe.handler",
                        new String[] {"counter.version", "counter.add", "counter.get"})));
        Bundle host = StubBundles.bundle(5, "io.troupe.host", "0.1.0", Bundle.ACTIVE,
                temp.resolve("system/troupe-host-0.1.0.jar").toUri().toString());
        Bundle system = StubBundles.bundle(0, "org.apache.felix.framework", "7.0.5", Bundle.ACTIVE, "System Bundle");

        List<PluginTable.Row> rows = PluginTable.of(new Bundle[] {system, host, wordcount, counter}, folder,
                folder.jars()).rows();

        assertEquals(List.of(
                new PluginTable.Row("14", "counter.jar", "io.troupe.sample.counter", "2.0.0", "ACTIVE",
                        "handlers counter.add, counter.get, counter.version"),
                new PluginTable.Row("15", "wordcount.jar", "io.troupe.sample.wordcount", "1.0.0", "ACTIVE",
                        "handlers wordcount; factories wordcount.chunk")), rows);
    }

    @Test
    void showsTheStateOfABundleThatDidNotStartAndAJarNothingWasInstalledFrom() throws Exception {
        Bundle chat = StubBundles.bundle(16, "io.troupe.sample.chat", "1.0.0", Bundle.INSTALLED,
                jar("chat.jar").toUri().toString());
        Bundle stopped = StubBundles.bundle(17, "io.troupe.sample.echo", "1.0.0", Bundle.RESOLVED,
                jar("echo.jar").toUri().toString());
        TestJars.bundle(deploy.resolve("fresh.jar"), "io.troupe.sample.fresh", "3.1.0");
        Files.writeString(deploy.resolve("broken.jar"), "not a jar", StandardCharsets.UTF_8);

        List<PluginTable.Row> rows = PluginTable.of(new Bundle[] {chat, stopped}, folder, folder.jars()).rows();

        assertEquals(List.of(
                new PluginTable.Row("-", "broken.jar", "-", "-", "NOT INSTALLED", "-"),
                new PluginTable.Row("16", "chat.jar", "io.troupe.sample.chat", "1.0.0", "INSTALLED", "-"),
                new PluginTable.Row("17", "echo.jar", "io.troupe.sample.echo", "1.0.0", "RESOLVED", "-"),
                new PluginTable.Row("-", "fresh.jar", "io.troupe.sample.fresh", "3.1.0", "NOT INSTALLED", "-")), rows);
    }

    @Test
    void marksABundleWhoseFileWasDeleted() throws Exception {
        Bundle counter = StubBundles.bundle(14, "io.troupe.sample.counter", "1.0.0", Bundle.ACTIVE,
                deploy.resolve("counter.jar").toUri().toString());

        List<PluginTable.Row> rows = PluginTable.of(new Bundle[] {counter}, folder, folder.jars()).rows();

        assertEquals("counter.jar (deleted)", rows.get(0).file());
    }

    @Test
    void printsAlignedColumnsOrSaysThereAreNoPlugins() throws Exception {
        Bundle echo = StubBundles.bundle(11, "io.troupe.sample.echo", "1.0.0", Bundle.ACTIVE,
                jar("echo.jar").toUri().toString(), StubBundles.actorFactory(Map.of("troupe.handler", "echo")));
        Bundle counter = StubBundles.bundle(114, "io.troupe.sample.counter", "2.0.0", Bundle.STARTING,
                jar("counter.jar").toUri().toString());

        assertEquals(String.join("\n",
                "ID   FILE         SYMBOLIC NAME             VERSION  STATE     PROVIDES",
                "114  counter.jar  io.troupe.sample.counter  2.0.0    STARTING  -",
                "11   echo.jar     io.troupe.sample.echo     1.0.0    ACTIVE    handlers echo",
                ""), print(PluginTable.of(new Bundle[] {echo, counter}, folder, folder.jars())));
        assertEquals("no plugins in " + deploy + "\n", print(PluginTable.of(new Bundle[0], folder, List.of())));
    }

    @Test
    void showsTheRevisionTheHostRefusedUnderTheOneThatRuns() throws Exception {
        TestJars.bundle(deploy.resolve("kv.jar"), "kv", "6.0.0");
        HostStatus.judge(deploy, "kv.jar", "rolled-back", "kv", "6.0.0", "5.0.0",
                "kv.Store cannot import the state of 5.0.0", Instant.now());
        Bundle kv = StubBundles.bundle(16, "kv", "5.0.0", Bundle.ACTIVE, deploy.resolve("kv.jar").toUri().toString(),
                StubBundles.actorFactory(Map.of("troupe.handler", "kv.put")));

        assertEquals(String.join("\n",
                "ID  FILE    SYMBOLIC NAME  VERSION  STATE   PROVIDES",
                "16  kv.jar  kv             5.0.0    ACTIVE  handlers kv.put",
                "      rejected kv 6.0.0: kv.Store cannot import the state of 5.0.0",
                ""), print(PluginTable.of(new Bundle[] {kv}, folder, folder.jars())));
    }

    @Test
    void aRefusalOfOtherBytesThanTheFileHoldsNowIsNotShown() throws Exception {
        TestJars.bundle(deploy.resolve("kv.jar"), "kv", "6.0.0");
        HostStatus.judge(deploy, "kv.jar", "failed", "kv", "6.0.0", null, "did not start", Instant.now());
        TestJars.bundle(deploy.resolve("kv.jar"), "kv", "6.0.1");

        List<PluginTable.Row> rows = PluginTable.of(new Bundle[0], folder, folder.jars()).rows();

        assertEquals(List.of(new PluginTable.Row("-", "kv.jar", "kv", "6.0.1", "NOT INSTALLED", "-")), rows);
    }

    @Test
    void namesEveryBundleState() {
        assertEquals("UNINSTALLED", PluginTable.stateName(Bundle.UNINSTALLED));
        assertEquals("INSTALLED", PluginTable.stateName(Bundle.INSTALLED));
        assertEquals("RESOLVED", PluginTable.stateName(Bundle.RESOLVED));
        assertEquals("STARTING", PluginTable.stateName(Bundle.STARTING));
        assertEquals("STOPPING", PluginTable.stateName(Bundle.STOPPING));
        assertEquals("ACTIVE", PluginTable.stateName(Bundle.ACTIVE));
    }

    private Path jar(String name) throws IOException {
        return Files.writeString(deploy.resolve(name), "", StandardCharsets.UTF_8);
    }

    private String print(PluginTable table) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        table.print(new PrintStream(bytes, true, StandardCharsets.UTF_8), deploy);
        return bytes.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
    }
}
