package io.troupe.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.troupe.client.TroupeClient;

/**
 * Runs the built distribution ({@code target/troupe}) as a user would: copied to a path with a
 * space, started with {@code bin/troupe} and no terminal, asked through its standard input, stopped
 * with a signal.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread; {@link TroupeProcess} reads the process's
 * output on threads of its own and hands lines over through a queue.
 */
class DistributionIT {

    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final Duration REPLY = Duration.ofSeconds(20);
    private static final Duration STOP = Duration.ofSeconds(10);
    private static final Path JAVA_HOME = Path.of(System.getProperty("java.home"));
    private static final int WIRE_CONNECTIONS = 4;
    private static final int WIRE_WINDOW = 16;
    private static final int WIRE_SWAPS = 6;
    private static final Duration WIRE_WARM_UP = Duration.ofSeconds(2);
    private static final Duration WIRE_STEADY_STATE = Duration.ofSeconds(3);

    @TempDir
    Path dir;

    private Path home;
    private int port;

    @BeforeEach
    void install() throws IOException {
        port = TestInstallation.freePort();
        home = TestInstallation.copy(dir, port);
    }

    @Test
    void aNewUserTalksToEverySamplePluginThroughTroupeClientWithTheDemoCredentials() throws Exception {
        try (TroupeProcess troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME)) {
            String ready = troupe.awaitLineStartingWith("Troupe ready", STARTUP);
            assertEquals("Troupe ready on 127.0.0.1:" + port, ready);
            assertTrue(Files.isRegularFile(home.resolve("etc/io.troupe.tenant-demo.cfg")), "no demo tenant");

            assertEquals(new ClientRun(0, "hello", ""), client("request", "echo", "hello"));
            assertEquals(new ClientRun(0, "3", ""), client("request", "wordcount", "a b c"));
            assertEquals(new ClientRun(0, "5", ""), client("request", "counter.add", "5"));
            assertEquals(new ClientRun(0, "7", ""), client("request", "counter.add", "2"));
            assertEquals(new ClientRun(0, "7", ""), client("request", "counter.get", ""));
            assertEquals(new ClientRun(0, "1.0.0", ""), client("request", "counter.version", ""));
            assertEquals(new ClientRun(0, "ok", ""), client("request", "chat.join", "lobby"));
            ClientRun badAdd = client("request", "counter.add", "seven");
            assertEquals(2, badAdd.exit());
            assertTrue(badAdd.stderr().startsWith("bad.request: "), badAdd.stderr());
            ClientRun missing = client("request", "no.such.handler", "x");
            assertEquals(2, missing.exit());
            assertTrue(missing.stderr().startsWith("no.handler: "), missing.stderr());

            assertEquals(0, troupe.terminate(STOP), troupe::transcript);
        }
    }

    /**
     * The counter updated in place by copying its other version over {@code deploy/counter.jar} with
     * {@code cp} (not atomic: the host sees the file while it is being written), back and forth, while
     * pipelined clients add to it over the wire: every request is answered with a REPLY, per-connection
     * order holds, and the total is the number of adds.
     */
    @Test
    void swappingTheCounterJarUnderPipelinedClientsLosesNoRequest() throws Exception {
        try (TroupeProcess troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME)) {
            troupe.awaitLineStartingWith("Troupe ready", STARTUP);
            String token = demoToken();
            try (TroupeClient probe = TroupeClient.builder().port(port).tenant("demo").token(token).build()) {
                probe.connect().get(REPLY.toSeconds(), TimeUnit.SECONDS);
                assertEquals("1.0.0", request(probe, "counter.version"));

                List<String> swaps = new ArrayList<>();
                CounterWireLoad.Result result;
                try (CounterWireLoad load = CounterWireLoad.start(port, "demo", token, WIRE_CONNECTIONS, WIRE_WINDOW)) {
                    pause(WIRE_WARM_UP);
                    load.phase(CounterWireLoad.Phase.STEADY);
                    pause(WIRE_STEADY_STATE);
                    load.phase(CounterWireLoad.Phase.SWAPS);
                    for (int i = 1; i <= WIRE_SWAPS; i++) {
                        String version = i % 2 == 1 ? "2.0.0" : "1.0.0";
                        copyWithCp(home.resolve("samples/counter-" + version + ".jar"),
                                home.resolve("deploy/counter.jar"));
                        swaps.add(version + " after " + awaitCounterVersion(probe, version).toMillis() + " ms");
                    }
                    result = load.stop();
                }

                System.out.println("[wire hot swap] " + WIRE_CONNECTIONS + " connections x " + WIRE_WINDOW
                        + " pipelined, swaps by cp (until counter.version answered): " + swaps);
                System.out.println("[wire hot swap] latency steady state (" + WIRE_STEADY_STATE.toSeconds()
                        + " s without swaps, after " + WIRE_WARM_UP.toSeconds() + " s of warm-up): "
                        + result.steady().summary());
                System.out.println("[wire hot swap] latency during swaps: " + result.swapping().summary());
                assertEquals(0, result.failed(), result::problems);
                assertEquals(List.of(), result.orderViolations(), result::problems);
                assertTrue(result.swapping().count() > WIRE_SWAPS, () -> "no load during the swaps: "
                        + result.swapping().summary());
                assertEquals(Long.toString(result.replies()), request(probe, "counter.get"),
                        "counter.get: every add counted once across " + WIRE_SWAPS + " swaps");
                assertEquals("1.0.0", request(probe, "counter.version"));
            }
            assertEquals(0, troupe.terminate(STOP), troupe::transcript);
            String log = Files.readString(home.resolve("log/troupe.log"));
            assertTrue(log.contains("Plugin deploy/counter.jar: io.troupe.sample.counter updated from 1.0.0 to 2.0.0"),
                    log);
        }
    }

    /**
     * The demo tenant's token, from the token file the server wrote on first start beside the tenant's file,
     * which holds only its hash.
     */
    private String demoToken() throws IOException {
        Properties tenant = new Properties();
        try (Reader in = Files.newBufferedReader(home.resolve("etc/io.troupe.tenant-demo.cfg"))) {
            tenant.load(in);
        }
        assertTrue(tenant.getProperty("token") == null, "a plaintext token in etc/io.troupe.tenant-demo.cfg");
        String token = Files.readString(home.resolve("etc/io.troupe.tenant-demo.token")).strip();
        assertTrue(token.length() >= 32, "no token in etc/io.troupe.tenant-demo.token");
        return token;
    }

    private static String request(TroupeClient client, String name) throws Exception {
        byte[] reply = client.request(name, new byte[0]).get(REPLY.toSeconds(), TimeUnit.SECONDS);
        return new String(reply, StandardCharsets.UTF_8);
    }

    /** Asks counter.version until it answers {@code expected}; returns how long that took. */
    private static Duration awaitCounterVersion(TroupeClient client, String expected) throws Exception {
        long begin = System.nanoTime();
        long deadline = begin + STARTUP.toNanos();
        String last;
        while (!(last = request(client, "counter.version")).equals(expected)) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("counter.version still answers " + last + " instead of " + expected
                        + " " + STARTUP.toSeconds() + " s after the copy");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        return Duration.ofNanos(System.nanoTime() - begin);
    }

    /** Copies with the {@code cp} command, as an operator would: in place, not atomically. */
    private static void copyWithCp(Path source, Path target) throws IOException, InterruptedException {
        Process cp = new ProcessBuilder("cp", source.toString(), target.toString()).inheritIO().start();
        if (!cp.waitFor(REPLY.toSeconds(), TimeUnit.SECONDS) || cp.exitValue() != 0) {
            cp.destroyForcibly();
            throw new AssertionError("cp " + source + " " + target + " failed");
        }
    }

    /** Lets time pass while the load runs: a measurement window, not a synchronisation. */
    private static void pause(Duration duration) {
        long deadline = System.nanoTime() + duration.toNanos();
        for (long left = duration.toNanos(); left > 0; left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    /** What one run of {@code bin/troupe-client} printed and returned. */
    private record ClientRun(int exit, String stdout, String stderr) {
    }

    /** Runs {@code bin/troupe-client} from a foreign working directory, with the install's defaults. */
    private ClientRun client(String... arguments) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>();
        command.add(home.resolve("bin/troupe-client").toString());
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile());
        builder.environment().remove("JAVA_OPTS");
        builder.environment().put("JAVA_HOME", JAVA_HOME.toString());
        Path out = Files.createTempFile(dir, "client", ".out");
        Path err = Files.createTempFile(dir, "client", ".err");
        Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        process.getOutputStream().close();
        if (!process.waitFor(REPLY.toSeconds(), java.util.concurrent.TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("troupe-client " + String.join(" ", arguments) + " did not finish");
        }
        return new ClientRun(process.exitValue(), Files.readString(out).strip(), Files.readString(err).strip());
    }

    /**
     * A new version of the counter that cannot start, deployed with {@code troupe-client deploy}: the
     * command fails with the host's reason, the previous version keeps serving with its total, the
     * rejection is marked beside the jar, and a good version deployed next clears the mark.
     */
    @Test
    void aRejectedJarFailsTheDeployCommandAndIsMarkedBesideTheJar() throws Exception {
        try (TroupeProcess troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME)) {
            troupe.awaitLineStartingWith("Troupe ready", STARTUP);
            assertEquals(new ClientRun(0, "5", ""), client("request", "counter.add", "5"));
            Path broken = Files.createDirectories(dir.resolve("broken")).resolve("counter.jar");
            Files.write(broken, counterThatCannotStart(home.resolve("samples/counter-2.0.0.jar")));

            ClientRun refused = client("deploy", broken.toString());
            assertEquals(4, refused.exit(), refused.toString());
            String said = refused.stdout() + "\n" + refused.stderr();
            assertTrue(said.contains("ERROR deploy.rejected: ") && said.contains("io.troupe.sample.counter.Missing"), said);
            String marker = Files.readString(home.resolve("deploy/counter.jar.failed"));
            assertTrue(marker.startsWith("io.troupe.sample.counter 3.0.0 was rejected: ")
                    && marker.contains("running: io.troupe.sample.counter 1.0.0"), marker);
            assertEquals(new ClientRun(0, "1.0.0", ""), client("request", "counter.version", ""));
            assertEquals(new ClientRun(0, "5", ""), client("request", "counter.get", ""));

            Path good = Files.createDirectories(dir.resolve("good")).resolve("counter.jar");
            Files.copy(home.resolve("samples/counter-2.0.0.jar"), good);
            ClientRun deployed = client("deploy", good.toString());
            assertEquals(0, deployed.exit(), deployed.toString());
            assertTrue(deployed.stdout().contains("running"), deployed.toString());
            assertTrue(Files.notExists(home.resolve("deploy/counter.jar.failed")), "the mark goes once a jar runs");
            assertEquals(new ClientRun(0, "2.0.0", ""), client("request", "counter.version", ""));
            assertEquals(new ClientRun(0, "5", ""), client("request", "counter.get", ""));

            assertEquals(0, troupe.terminate(STOP), troupe::transcript);
        }
    }

    /** {@code counter} relabelled 3.0.0, naming a Bundle-Activator the jar does not hold: it fails to start. */
    private static byte[] counterThatCannotStart(Path counter) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JarInputStream in = new JarInputStream(Files.newInputStream(counter))) {
            Manifest manifest = new Manifest(in.getManifest());
            manifest.getMainAttributes().putValue("Bundle-Version", "3.0.0");
            manifest.getMainAttributes().putValue("Bundle-Activator", "io.troupe.sample.counter.Missing");
            try (JarOutputStream out = new JarOutputStream(bytes, manifest)) {
                for (JarEntry entry = in.getNextJarEntry(); entry != null; entry = in.getNextJarEntry()) {
                    out.putNextEntry(new JarEntry(entry.getName()));
                    in.transferTo(out);
                    out.closeEntry();
                }
            }
        }
        return bytes.toByteArray();
    }

    @Test
    void answersAsksReadFromStandardInputAndExitsZeroOnSigterm() throws Exception {
        try (TroupeProcess troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME)) {
            troupe.awaitLineStartingWith("Troupe ready", STARTUP);

            troupe.send("ask echo hello");
            troupe.awaitLine("hello", REPLY);
            troupe.send("ask wordcount \"a b c\"");
            troupe.awaitLine("3", REPLY);

            assertEquals(0, troupe.terminate(STOP), troupe::transcript);
        }
        assertTrue(Files.isRegularFile(home.resolve("log/troupe.log")), "no log/troupe.log");
        assertTrue(Files.isDirectory(home.resolve("data/cache")), "no framework cache in data/");
    }

    @Test
    void theLogsOfEveryBundleReachTroupeLogAndTheShutdownLineIsLast() throws Exception {
        Files.write(home.resolve("deploy/broken-component.jar"), componentWithAMissingClass());

        try (TroupeProcess troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME)) {
            troupe.awaitLineStartingWith("Troupe ready", STARTUP);
            Path log = home.resolve("log/troupe.log");
            // Declarative Services logs through the OSGi log service; the host forwards its entries.
            awaitLogLine(log, " ERROR ", "com.example.Missing");
            assertEquals(0, troupe.terminate(STOP), troupe::transcript);
        }
        List<String> lines = Files.readAllLines(home.resolve("log/troupe.log"));
        String text = String.join("\n", lines);
        assertTrue(text.contains(" io.troupe.host.HostActivator - Troupe runtime started"), text);
        assertTrue(text.contains(" io.troupe.server.Endpoint - Troupe ready on 127.0.0.1:" + port), text);
        assertTrue(text.contains(" io.troupe.server.ServerComponent - Troupe server stopped"), text);
        assertTrue(lines.get(lines.size() - 1).endsWith(" - Troupe logger stopped"),
                "the shutdown line is last after SIGTERM: " + lines.get(lines.size() - 1));
    }

    /**
     * A plugin whose Declarative Services component names an implementation class the jar does not
     * hold: the bundle starts, and SCR logs an ERROR when it tries to activate the component.
     */
    private static byte[] componentWithAMissingClass() throws IOException {
        Manifest manifest = new Manifest();
        Attributes main = manifest.getMainAttributes();
        main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        main.putValue("Bundle-ManifestVersion", "2");
        main.putValue("Bundle-SymbolicName", "com.example.brokencomponent");
        main.putValue("Bundle-Version", "1.0.0");
        main.putValue("Service-Component", "OSGI-INF/broken.xml");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JarOutputStream jar = new JarOutputStream(bytes, manifest)) {
            jar.putNextEntry(new JarEntry("OSGI-INF/broken.xml"));
            jar.write(("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                    + "<scr:component xmlns:scr=\"http://www.osgi.org/xmlns/scr/v1.3.0\""
                    + " name=\"com.example.Broken\" immediate=\"true\">\n"
                    + "  <implementation class=\"com.example.Missing\"/>\n"
                    + "</scr:component>\n").getBytes(StandardCharsets.UTF_8));
            jar.closeEntry();
        }
        return bytes.toByteArray();
    }

    /** Waits, polling the file, until one line of {@code log} holds every fragment. */
    private static void awaitLogLine(Path log, String... fragments) throws IOException {
        long deadline = System.nanoTime() + REPLY.toNanos();
        while (true) {
            if (Files.exists(log)) {
                for (String line : Files.readAllLines(log)) {
                    if (Arrays.stream(fragments).allMatch(line::contains)) {
                        return;
                    }
                }
            }
            if (System.nanoTime() > deadline) {
                fail("no line with " + Arrays.toString(fragments) + " in " + log + " within " + REPLY + ":\n"
                        + (Files.exists(log) ? Files.readString(log) : "(no file)"));
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
    }

    @Test
    void startsAgainThroughASymlinkAfterItsDataIsDeleted() throws Exception {
        try (TroupeProcess first = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME)) {
            first.awaitLineStartingWith("Troupe ready", STARTUP);
            assertEquals(0, first.terminate(STOP), first::transcript);
        }
        deleteTree(home.resolve("data"));
        Path links = Files.createDirectories(dir.resolve("some other dir"));
        Path link = Files.createSymbolicLink(links.resolve("troupe"), home.resolve("bin/troupe"));

        try (TroupeProcess second = TroupeProcess.start(link, Path.of("/"), JAVA_HOME)) {
            second.awaitLineStartingWith("Troupe ready", STARTUP);
            second.send("ask echo hello again");
            second.awaitLine("hello again", REPLY);
            assertEquals(0, second.terminate(STOP), second::transcript);
        }
        assertTrue(Files.isDirectory(home.resolve("data/cache")), "the cache was not created again");
    }

    @Test
    void reportsACorruptPluginByNameAndServesWithTheOthersUntilSigint() throws Exception {
        Files.writeString(home.resolve("deploy/broken.jar"), "not a jar", StandardCharsets.UTF_8);

        try (TroupeProcess troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME)) {
            troupe.awaitLineStartingWith("Troupe ready", STARTUP);
            troupe.send("ask echo still serving");
            troupe.awaitLine("still serving", REPLY);

            assertEquals(0, troupe.interrupt(STOP), troupe::transcript);
            String log = Files.readString(home.resolve("log/troupe.log"));
            assertTrue(log.contains("Plugin deploy/broken.jar is not usable: not a readable jar"), log);
        }
    }

    @Test
    void exitsZeroWhenAScriptStopsTheFramework() throws Exception {
        try (TroupeProcess troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME)) {
            troupe.awaitLineStartingWith("Troupe ready", STARTUP);

            troupe.send("stop 0");

            assertEquals(0, troupe.awaitExit(STOP), troupe::transcript);
        }
    }

    @Test
    void refusesToRunTwiceFromOneInstallationAndLeavesTheFirstServing() throws Exception {
        try (TroupeProcess first = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME)) {
            first.awaitLineStartingWith("Troupe ready", STARTUP);

            try (TroupeProcess second = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME)) {
                assertEquals(1, second.awaitExit(STARTUP), second::transcript);
                assertTrue(second.stderr().stream().anyMatch(line ->
                        line.startsWith("troupe: error: Troupe is already running from " + home)), second::transcript);
            }
            first.send("ask echo still here");
            first.awaitLine("still here", REPLY);
            assertEquals(0, first.terminate(STOP), first::transcript);
        }
    }

    @Test
    void refusesAJavaOlderThan17WithAClearMessage() throws Exception {
        Path fakeJavaHome = dir.resolve("old java");
        Path fakeJava = Files.createDirectories(fakeJavaHome.resolve("bin")).resolve("java");
        Files.writeString(fakeJava, String.join("\n",
                "#!/bin/sh",
                "echo 'openjdk version \"11.0.22\" 2024-01-16' >&2",
                "echo 'OpenJDK Runtime Environment (build 11.0.22+7)' >&2",
                ""));
        Files.setPosixFilePermissions(fakeJava, PosixFilePermissions.fromString("rwxr-xr-x"));

        try (TroupeProcess troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, fakeJavaHome)) {
            int status = troupe.awaitExit(STOP);

            assertNotEquals(0, status);
            assertEquals(List.of("troupe: error: Troupe needs Java 17 or newer, but '" + fakeJava
                    + "' is Java 11; set JAVA_HOME to a newer Java"), troupe.stderr(), troupe::transcript);
        }
    }

    private static void deleteTree(Path root) throws IOException {
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path directory, IOException e) throws IOException {
                Files.delete(directory);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
