package io.troupe.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Bundle;

import io.troupe.client.deploy.DeployException;
import io.troupe.client.deploy.StatusPoller;
import io.troupe.testsupport.HostStatus;
import io.troupe.testsupport.ManualClock;
import io.troupe.testsupport.TestJars;

/**
 * The plugin commands as a user sees them: what they print, the host's outcome they wait for,
 * relative paths, the installed bundle consulted by {@code update}, and a framework without a deploy
 * folder. The host is played by the poller's pause: on the first pause after a copy it judges the
 * jars whose bytes it has not judged yet, as {@link #verdict} says; the clock moves only with pauses.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread; the commands wait on it.
 */
class PluginCommandsTest {

    private static final String COUNTER = "io.troupe.sample.counter";
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    Path home;

    private Path deploy;
    private Bundle[] installed = new Bundle[0];
    private PluginCommands commands;
    private final ManualClock clock = new ManualClock(Instant.parse("2026-12-01T21:00:00Z"));
    /** What the host makes of a new jar: outcome, version running after a refusal, reason; null: no answer. */
    private String[] verdict = {"running", null, null};

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    @BeforeEach
    void createInstallation() throws IOException {
        deploy = Files.createDirectory(home.resolve("deploy"));
        TestJars.bundle(home.resolve("samples/counter-1.0.0.jar"), COUNTER, "1.0.0", "v1");
        TestJars.bundle(home.resolve("samples/counter-2.0.0.jar"), COUNTER, "2.0.0", "v2");
        TestJars.bundle(home.resolve("samples/chat-1.0.0.jar"), "io.troupe.sample.chat", "1.0.0");
        commands = new PluginCommands(() -> installed, deploy.toString(), new StatusPoller(clock, this::host),
                TIMEOUT);
    }

    /** The host's deploy watcher, between two reads of the status. */
    private void host(Duration pause) {
        clock.advance(pause);
        if (verdict != null) {
            try {
                HostStatus.judgeNew(deploy, verdict[0], verdict[1], verdict[2], clock.instant());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    @Test
    void deployCopiesAPathRelativeToTheSessionsDirectoryAndPrintsThatItRuns() throws Exception {
        commands.deploy(out, home, "samples/counter-2.0.0.jar");

        assertEquals("deployed io.troupe.sample.counter 2.0.0 as deploy/counter-2.0.0.jar: running\n", printed());
        assertEquals("v2", TestJars.content(deploy.resolve("counter-2.0.0.jar")));
    }

    @Test
    void updateReplacesTheDeployedJarAndPrintsThatTheNewRevisionRuns() throws Exception {
        Files.copy(home.resolve("samples/counter-1.0.0.jar"), deploy.resolve("counter.jar"));

        commands.update(out, home.resolve("samples"), "counter", "counter-2.0.0.jar");

        assertEquals("updated deploy/counter.jar: io.troupe.sample.counter 1.0.0 -> io.troupe.sample.counter 2.0.0:"
                + " running\n", printed());
        assertEquals("v2", TestJars.content(deploy.resolve("counter.jar")));
    }

    @Test
    void anUpdateTheHostRollsBackPrintsTheReasonAndWhatRunsAndFails() throws Exception {
        Files.copy(home.resolve("samples/counter-1.0.0.jar"), deploy.resolve("counter.jar"));
        verdict = new String[] {"rolled-back", "1.0.0", "io.troupe.sample.counter.Counter cannot import the state"};

        DeployException e = assertThrows(DeployException.class,
                () -> commands.update(out, home, "counter", "samples/counter-2.0.0.jar"));

        assertEquals(DeployException.DEPLOY_REJECTED, e.code());
        assertEquals("ERROR deploy.rejected: io.troupe.sample.counter.Counter cannot import the state\n"
                + "running: io.troupe.sample.counter 1.0.0\n", printed());
    }

    @Test
    void aDeployTheHostCannotStartPrintsThatNothingRunsAndFails() throws Exception {
        verdict = new String[] {"failed", null, "the bundle did not start: missing import com.example"};

        DeployException e = assertThrows(DeployException.class,
                () -> commands.deploy(out, home, "samples/chat-1.0.0.jar"));

        assertEquals(DeployException.DEPLOY_REJECTED, e.code());
        assertEquals("ERROR deploy.rejected: the bundle did not start: missing import com.example\n"
                + "running: nothing\n", printed());
        assertTrue(Files.exists(deploy.resolve("chat-1.0.0.jar.failed")));
    }

    @Test
    void noOutcomeWithinTheTimeoutFailsAndSaysWhatToCheck() throws Exception {
        verdict = null;

        DeployException e = assertThrows(DeployException.class,
                () -> commands.deploy(out, home, "samples/chat-1.0.0.jar"));

        assertEquals(DeployException.DEPLOY_TIMEOUT, e.code());
        assertEquals("ERROR deploy.timeout: the host reported no outcome for deploy/chat-1.0.0.jar within 60 s (is"
                + " Troupe running, and is " + deploy + " its deploy folder?); the jar stays there\n", printed());
        assertEquals(Instant.parse("2026-12-01T21:01:00Z"), clock.instant());
    }

    @Test
    void updateRefusesAJarOfAnotherBundleThanTheInstalledOne() throws Exception {
        Files.copy(home.resolve("samples/chat-1.0.0.jar"), deploy.resolve("counter.jar"));
        installed = new Bundle[] {StubBundles.bundle(14, COUNTER, "1.0.0", Bundle.ACTIVE,
                deploy.resolve("counter.jar").toUri().toString())};

        assertFails(DeployException.SYMBOLIC_NAME_MISMATCH,
                () -> commands.update(out, home, "counter.jar", "samples/chat-1.0.0.jar"));

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
    void aRefusalIsOneErrorLineWithItsCodeAndAFailedCommand() throws Exception {
        Files.copy(home.resolve("samples/counter-1.0.0.jar"), deploy.resolve("counter.jar"));

        assertFails(DeployException.PLUGIN_EXISTS, () -> commands.deploy(out, home, "samples/counter-1.0.0.jar"));
        assertFails(DeployException.BAD_REQUEST, () -> commands.deploy(out, home, "  "));
        assertFails(DeployException.NO_PLUGIN, () -> commands.update(out, home, "chat", "samples/chat-1.0.0.jar"));
        assertFails(DeployException.BAD_REQUEST, () -> commands.remove(out, "../samples/chat-1.0.0.jar"));

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
    void everyCommandFailsAndSaysSoWithoutTheDeployFolderProperty() throws Exception {
        PluginCommands without = new PluginCommands(() -> installed, null, new StatusPoller(), TIMEOUT);

        assertFails(DeployException.DEPLOY_UNAVAILABLE, () -> without.plugins(out));
        assertFails(DeployException.DEPLOY_UNAVAILABLE, () -> without.deploy(out, home, "samples/counter-1.0.0.jar"));
        assertFails(DeployException.DEPLOY_UNAVAILABLE,
                () -> without.update(out, home, "counter", "samples/counter-2.0.0.jar"));
        assertFails(DeployException.DEPLOY_UNAVAILABLE, () -> without.remove(out, "counter"));

        String line = "ERROR deploy.unavailable: the framework property troupe.deploy.dir is not set, so there is"
                + " no deploy folder (the Troupe launcher sets it: start Troupe with bin/troupe)\n";
        assertEquals(line.repeat(4), printed());
        try (Stream<Path> files = Files.list(deploy)) {
            assertEquals(List.of(), files.toList());
        }
    }

    @Test
    void aDeployFolderThatIsGoneIsReportedByEveryCommand() throws Exception {
        PluginCommands gone = new PluginCommands(() -> installed, home.resolve("nowhere").toString(),
                new StatusPoller(), TIMEOUT);

        assertFails(DeployException.DEPLOY_UNAVAILABLE, () -> gone.plugins(out));
        assertFails(DeployException.DEPLOY_UNAVAILABLE, () -> gone.deploy(out, home, "samples/counter-1.0.0.jar"));

        String line = "ERROR deploy.unavailable: the deploy folder " + home.resolve("nowhere") + " does not exist\n";
        assertEquals(line + line, printed());
    }

    private static void assertFails(String code, Executable command) {
        assertEquals(code, assertThrows(DeployException.class, command).code());
    }

    private String printed() {
        return bytes.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
    }
}
