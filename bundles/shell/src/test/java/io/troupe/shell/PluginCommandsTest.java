package io.troupe.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Bundle;

/**
 * The plugin commands as a user sees them: what they print, relative paths, the installed bundle
 * consulted by {@code update}, and a framework without a deploy folder.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread.
 */
class PluginCommandsTest {

    private static final String COUNTER = "io.troupe.sample.counter";

    @TempDir
    Path home;

    private Path deploy;
    private Bundle[] installed = new Bundle[0];
    private PluginCommands commands;

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    @BeforeEach
    void createInstallation() throws IOException {
        deploy = Files.createDirectory(home.resolve("deploy"));
        TestJars.bundle(home.resolve("samples/counter-1.0.0.jar"), COUNTER, "1.0.0", "v1");
        TestJars.bundle(home.resolve("samples/counter-2.0.0.jar"), COUNTER, "2.0.0", "v2");
        TestJars.bundle(home.resolve("samples/chat-1.0.0.jar"), "io.troupe.sample.chat", "1.0.0");
        commands = new PluginCommands(() -> installed, deploy.toString());
    }

    @Test
    void deployCopiesAPathRelativeToTheSessionsDirectoryAndSaysTheHostAppliesIt() throws Exception {
        commands.deploy(out, home, "samples/counter-2.0.0.jar");

        assertEquals("deployed io.troupe.sample.counter 2.0.0 as deploy/counter-2.0.0.jar\n"
                + "the host installs and starts it within a second or so; plugins shows the result\n", printed());
        assertEquals("v2", TestJars.content(deploy.resolve("counter-2.0.0.jar")));
    }

    @Test
    void updateReplacesTheDeployedJarAndSaysTheActorsKeepTheirState() throws Exception {
        Files.copy(home.resolve("samples/counter-1.0.0.jar"), deploy.resolve("counter.jar"));

        commands.update(out, home.resolve("samples"), "counter", "counter-2.0.0.jar");

        assertEquals("updated deploy/counter.jar: io.troupe.sample.counter 1.0.0 -> io.troupe.sample.counter 2.0.0\n"
                + "the host updates the plugin in place, its actors keeping their state, within a second or so;"
                + " plugins shows the result\n", printed());
        assertEquals("v2", TestJars.content(deploy.resolve("counter.jar")));
    }

    @Test
    void updateRefusesAJarOfAnotherBundleThanTheInstalledOne() throws Exception {
        Files.copy(home.resolve("samples/chat-1.0.0.jar"), deploy.resolve("counter.jar"));
        installed = new Bundle[] {StubBundles.bundle(14, COUNTER, "1.0.0", Bundle.ACTIVE,
                deploy.resolve("counter.jar").toUri().toString())};

        commands.update(out, home, "counter.jar", "samples/chat-1.0.0.jar");

        assertTrue(printed().startsWith("ERROR symbolic.name.mismatch: " + home.resolve("samples/chat-1.0.0.jar")
                + " is io.troupe.sample.chat, but deploy/counter.jar is io.troupe.sample.counter"), printed());
    }

    @Test
    void removeDeletesTheJarAndSaysTheHostUninstallsIt() throws Exception {
        Files.copy(home.resolve("samples/counter-1.0.0.jar"), deploy.resolve("counter.jar"));

        commands.remove(out, "counter");

        assertEquals("removed deploy/counter.jar (io.troupe.sample.counter 1.0.0)\n"
                + "the host stops and uninstalls the plugin within a second or so; plugins shows the result\n",
                printed());
        assertFalse(Files.exists(deploy.resolve("counter.jar")));
    }

    @Test
    void aRefusalIsOneErrorLineWithItsCode() throws Exception {
        Files.copy(home.resolve("samples/counter-1.0.0.jar"), deploy.resolve("counter.jar"));

        commands.deploy(out, home, "samples/counter-1.0.0.jar");
        commands.deploy(out, home, "  ");
        commands.update(out, home, "chat", "samples/chat-1.0.0.jar");
        commands.remove(out, "../samples/chat-1.0.0.jar");

        String[] lines = printed().split("\n");
        assertEquals(4, lines.length, printed());
        assertTrue(lines[0].startsWith("ERROR plugin.exists: io.troupe.sample.counter is already deployed as"
                + " deploy/counter.jar; use update counter "), lines[0]);
        assertEquals("ERROR bad.request: the path of a plugin jar is required", lines[1]);
        assertTrue(lines[2].startsWith("ERROR no.plugin: there is no deploy/chat.jar"), lines[2]);
        assertTrue(lines[3].startsWith("ERROR bad.request: '../samples/chat-1.0.0.jar' is a path"), lines[3]);
    }

    @Test
    void pluginsPrintsTheTableOfTheDeployFolder() throws Exception {
        Files.copy(home.resolve("samples/counter-1.0.0.jar"), deploy.resolve("counter.jar"));
        installed = new Bundle[] {StubBundles.bundle(14, COUNTER, "1.0.0", Bundle.ACTIVE,
                deploy.resolve("counter.jar").toUri().toString(),
                StubBundles.actorFactory(Map.of("troupe.handler", new String[] {"counter.add", "counter.get"})))};

        commands.plugins(out);

        assertEquals("ID  FILE         SYMBOLIC NAME             VERSION  STATE   PROVIDES\n"
                + "14  counter.jar  io.troupe.sample.counter  1.0.0    ACTIVE  handlers counter.add, counter.get\n",
                printed());
    }

    @Test
    void everyCommandSaysSoWithoutTheDeployFolderProperty() throws Exception {
        PluginCommands without = new PluginCommands(() -> installed, null);

        without.plugins(out);
        without.deploy(out, home, "samples/counter-1.0.0.jar");
        without.update(out, home, "counter", "samples/counter-2.0.0.jar");
        without.remove(out, "counter");

        String line = "ERROR deploy.unavailable: the framework property troupe.deploy.dir is not set, so there is"
                + " no deploy folder (the Troupe launcher sets it: start Troupe with bin/troupe)\n";
        assertEquals(line.repeat(4), printed());
        try (Stream<Path> files = Files.list(deploy)) {
            assertEquals(0, files.count());
        }
    }

    @Test
    void aDeployFolderThatIsGoneIsReportedByEveryCommand() throws Exception {
        PluginCommands gone = new PluginCommands(() -> installed, home.resolve("nowhere").toString());

        gone.plugins(out);
        gone.deploy(out, home, "samples/counter-1.0.0.jar");

        String line = "ERROR deploy.unavailable: the deploy folder " + home.resolve("nowhere") + " does not exist\n";
        assertEquals(line + line, printed());
    }

    private String printed() {
        return bytes.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
    }
}
