package io.troupe.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.troupe.distribution.plugins.MisbehavingPlugin;

/**
 * Plugins whose start never returns, against the built distribution (issue 19's first two rows): deployed
 * live, such a plugin is reported with its name, version and the stack of the thread stuck in it, and later
 * deploys and hot swaps still happen; present at startup, it keeps neither the port closed nor the other
 * plugins from serving; deleting it uninstalls it within 5 s and reports the threads it leaked; SIGTERM ends
 * Troupe promptly with exit status 0 whatever it does. The plugin start timeout is 2 s here.
 *
 * <p><b>Threading:</b> the test thread; {@link TroupeProcess} reads the child's output on its own threads.
 */
class MisbehavingPluginIT {

    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final Duration REPLY = Duration.ofSeconds(20);
    /** Well under the launcher's own 10 s stop bound, past which it halts with exit status 1. */
    private static final Duration PROMPT_STOP = Duration.ofSeconds(7);
    private static final Duration UNINSTALL = Duration.ofSeconds(5);
    private static final Path JAVA_HOME = Path.of(System.getProperty("java.home"));
    private static final int START_TIMEOUT_SECONDS = 2;

    private static final MisbehavingPlugin BLOCKING =
            new MisbehavingPlugin("com.example.blocking", "1.0.0", "block", "blocking-plugin-leak");
    private static final MisbehavingPlugin SPINNING =
            new MisbehavingPlugin("com.example.spinning", "1.0.0", "spin", null);
    private static final MisbehavingPlugin EXITING =
            new MisbehavingPlugin("com.example.exiting", "1.0.0", "exit", null);
    private static final MisbehavingPlugin WELL_BEHAVED =
            new MisbehavingPlugin("com.example.wellbehaved", "1.0.0", "none", null);

    @TempDir
    Path dir;

    private Path home;
    private Path deploy;
    private Path log;

    @BeforeEach
    void install() throws IOException {
        home = TestInstallation.copy(dir, TestInstallation.freePort());
        deploy = home.resolve("deploy");
        log = home.resolve("log/troupe.log");
        Files.writeString(home.resolve("etc/config.properties"),
                "\ntroupe.deploy.startTimeoutSeconds=" + START_TIMEOUT_SECONDS + "\n", StandardOpenOption.APPEND);
    }

    @Test
    void aPluginWhoseStartHangsDeployedLiveIsReportedAndLaterDeploysSwapsAndItsRemovalStillWork() throws Exception {
        try (TroupeProcess troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME)) {
            troupe.awaitLineStartingWith("Troupe ready on ", STARTUP);

            BLOCKING.deployTo(deploy, "blocking.jar");
            awaitStartTimeoutReport(BLOCKING, "blocking.jar");
            String report = Files.readString(log);
            assertTrue(report.contains("\tat io.troupe.distribution.plugins.MisbehavingActivator.start("), report);
            assertEquals("failed", status("blocking.jar").getProperty("outcome"));

            // a hot swap after it: the counter goes from 1.0.0 to 2.0.0 and answers as 2.0.0
            copyAtomically(home.resolve("samples/counter-2.0.0.jar"), deploy.resolve("counter.jar"));
            awaitStatus("counter.jar", "running", "2.0.0");
            troupe.send("ask counter.version");
            troupe.awaitLine("2.0.0", REPLY);
            // a new plugin after it
            WELL_BEHAVED.deployTo(deploy, "wellbehaved.jar");
            awaitStatus("wellbehaved.jar", "running", "1.0.0");

            // removing the stuck plugin ends its start and uninstalls it within 5 s; its thread is reported
            long begin = System.nanoTime();
            Files.delete(deploy.resolve("blocking.jar"));
            awaitLogLine(UNINSTALL.plusSeconds(1), "Plugin deploy/blocking.jar removed: com.example.blocking 1.0.0"
                    + " uninstalled");
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin);
            assertTrue(millis < UNINSTALL.toMillis(), "the uninstall took " + millis + " ms");
            awaitLogLine("Plugin com.example.blocking 1.0.0 (deploy/blocking.jar) was uninstalled but left 1 thread(s)"
                    + " running");
            assertTrue(Files.readString(log).contains("\"blocking-plugin-leak\""), Files.readString(log));

            troupe.send("ask echo still serving");
            troupe.awaitLine("still serving", REPLY);
            assertEquals(0, troupe.terminate(PROMPT_STOP), troupe::transcript);
        }
    }

    /** A fixed version copied over a plugin whose start hangs replaces it; the old revision's thread is reported. */
    @Test
    void aPluginWhoseStartHangsIsReplacedByANewVersionOfItsJar() throws Exception {
        try (TroupeProcess troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME)) {
            troupe.awaitLineStartingWith("Troupe ready on ", STARTUP);
            BLOCKING.deployTo(deploy, "blocking.jar");
            awaitStartTimeoutReport(BLOCKING, "blocking.jar");

            new MisbehavingPlugin("com.example.blocking", "1.1.0", "none", null).deployTo(deploy, "blocking.jar");

            awaitStatus("blocking.jar", "running", "1.1.0");
            awaitLogLine("Plugin deploy/blocking.jar: its start, stuck for ", " was interrupted so that it can be"
                    + " replaced");
            awaitLogLine("Plugin com.example.blocking 1.0.0 (deploy/blocking.jar) was updated but left 1 thread(s)"
                    + " running");
            assertEquals(0, troupe.terminate(PROMPT_STOP), troupe::transcript);
        }
    }

    @Test
    void aPluginWhoseStartHangsAtStartupKeepsNeitherThePortClosedNorTheOthersFromServingNorSigtermWaiting()
            throws Exception {
        BLOCKING.deployTo(deploy, "blocking.jar");

        try (TroupeProcess troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME)) {
            troupe.awaitLineStartingWith("Troupe ready on ", STARTUP);
            troupe.send("ask echo hello");
            troupe.awaitLine("hello", REPLY);
            troupe.send("ask wordcount \"a b c\"");
            troupe.awaitLine("3", REPLY);
            awaitStartTimeoutReport(BLOCKING, "blocking.jar");
            awaitLogLine("Plugins of ", "at startup: ", "1 still starting");

            long begin = System.nanoTime();
            assertEquals(0, troupe.terminate(PROMPT_STOP), troupe::transcript);
            System.out.println("[misbehaving plugins] SIGTERM with a blocked plugin start: exit 0 after "
                    + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin) + " ms");
        }
    }

    @Test
    void aPluginThatSpinsInItsStartAndIgnoresInterruptsDoesNotKeepSigtermWaiting() throws Exception {
        SPINNING.deployTo(deploy, "spinning.jar");

        try (TroupeProcess troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME)) {
            troupe.awaitLineStartingWith("Troupe ready on ", STARTUP);
            troupe.send("ask echo hello");
            troupe.awaitLine("hello", REPLY);
            awaitStartTimeoutReport(SPINNING, "spinning.jar");

            long begin = System.nanoTime();
            assertEquals(0, troupe.terminate(PROMPT_STOP), troupe::transcript);
            System.out.println("[misbehaving plugins] SIGTERM with a spinning plugin start: exit 0 after "
                    + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin) + " ms");
        }
        String text = Files.readString(log);
        assertTrue(text.contains("The start of com.example.spinning 1.0.0 (deploy/spinning.jar) was stopped"), text);
    }

    /**
     * An actor that spins in {@code receive} (the burn sample, 3 s of CPU for one message): the monitor's stall
     * report names the worker, the actor, the plugin that provides it and the stack.
     */
    @Test
    void aStallInReceiveIsReportedWithThePluginTheActorAndTheStack() throws Exception {
        Files.copy(Path.of(System.getProperty("troupe.burnPlugin")), deploy.resolve("burn.jar"));

        try (TroupeProcess troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME)) {
            troupe.awaitLineStartingWith("Troupe ready on ", STARTUP);
            troupe.send("ask burn 3000000");
            awaitLogLine(" has been running actor ", "(handler:burn, plugin io.troupe.sample.burn 1.0.0",
                    "processing Message 'burn'");
            troupe.awaitLine("3000000", REPLY); // the script console waits for each answer before the next line
            troupe.send("ask echo after");
            troupe.awaitLine("after", REPLY);
            assertTrue(Files.readString(log).contains("io.troupe.sample.burn.BurnHandler"), Files.readString(log));
            assertEquals(0, troupe.terminate(PROMPT_STOP), troupe::transcript);
        }
    }

    /** With troupe.plugins.refuseExit=true, on a JDK that still has a security manager (17 here). */
    @Test
    void aPluginCallingSystemExitIsRefusedWhenAskedAndTroupeGoesOnServing() throws Exception {
        Files.writeString(home.resolve("etc/config.properties"), "\ntroupe.plugins.refuseExit=true\n",
                StandardOpenOption.APPEND);

        try (TroupeProcess troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME)) {
            troupe.awaitLineStartingWith("Troupe ready on ", STARTUP);
            EXITING.deployTo(deploy, "exiting.jar");
            awaitLogLine("Plugin deploy/exiting.jar (com.example.exiting 1.0.0) did not start",
                    "Runtime.exit(3) called by plugin com.example.exiting 1.0.0", "refused");
            assertEquals("failed", status("exiting.jar").getProperty("outcome"));
            assertTrue(troupe.isAlive(), troupe::transcript);

            troupe.send("ask echo still serving");
            troupe.awaitLine("still serving", REPLY);
            assertEquals(0, troupe.terminate(PROMPT_STOP), troupe::transcript);
            assertTrue(troupe.stderr().stream().anyMatch(line -> line.startsWith("troupe: warning: Runtime.exit(3)"
                    + " called by plugin com.example.exiting 1.0.0")), troupe::transcript);
        }
    }

    private Properties status(String file) throws IOException {
        Properties status = new Properties();
        Path path = deploy.resolve(".status").resolve(file);
        if (Files.isRegularFile(path)) {
            try (Reader in = Files.newBufferedReader(path)) {
                status.load(in);
            }
        }
        return status;
    }

    /** Waits, polling the status file, until {@code deploy/.status/file} says {@code outcome} for {@code version}. */
    private void awaitStatus(String file, String outcome, String version) throws IOException {
        long deadline = System.nanoTime() + REPLY.toNanos();
        Properties status;
        while (!(outcome.equals((status = status(file)).getProperty("outcome"))
                && version.equals(status.getProperty("version")))) {
            if (System.nanoTime() - deadline > 0) {
                fail("deploy/.status/" + file + " does not say " + outcome + " " + version + " within " + REPLY
                        + ": " + status + "\n" + Files.readString(log));
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        }
    }

    /**
     * Waits until the log reports that {@code plugin}, deployed as {@code deploy/file}, has not finished starting
     * within the start timeout.
     */
    private void awaitStartTimeoutReport(MisbehavingPlugin plugin, String file) throws IOException {
        awaitLogLine("Plugin deploy/" + file + " (" + plugin.symbolicName() + " " + plugin.version() + ", bundle",
                "has not finished starting after " + START_TIMEOUT_SECONDS + " s");
    }

    private void awaitLogLine(String... fragments) throws IOException {
        awaitLogLine(REPLY, fragments);
    }

    /** Waits, polling the file, until one line of the log holds every fragment. */
    private void awaitLogLine(Duration timeout, String... fragments) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (Files.exists(log)) {
                List<String> lines = Files.readAllLines(log);
                for (String line : lines) {
                    if (Arrays.stream(fragments).allMatch(line::contains)) {
                        return;
                    }
                }
            }
            if (System.nanoTime() - deadline > 0) {
                fail("no line with " + Arrays.toString(fragments) + " in " + log + " within " + timeout + ":\n"
                        + (Files.exists(log) ? Files.readString(log) : "(no file)"));
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        }
    }

    /** Copies beside the target, then renames into place. */
    private static void copyAtomically(Path source, Path target) throws IOException {
        Path part = target.resolveSibling("." + target.getFileName() + ".part");
        Files.copy(source, part, StandardCopyOption.REPLACE_EXISTING);
        Files.move(part, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
