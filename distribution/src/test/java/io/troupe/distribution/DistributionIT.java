package io.troupe.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    @TempDir
    Path dir;

    private Path home;
    private int port;

    @BeforeEach
    void install() throws IOException {
        Path built = Path.of(System.getProperty("troupe.distribution", "target/troupe"));
        assertTrue(Files.isExecutable(built.resolve("bin/troupe")), "bin/troupe is not executable in " + built);
        home = dir.resolve("troupe home");
        copyTree(built, home);
        port = freePort();
        Path serverConfig = home.resolve("etc/io.troupe.server.cfg");
        String config = Files.readString(serverConfig).replaceFirst("(?m)^port = 7878$", "port = " + port);
        assertTrue(config.contains("port = " + port), "etc/io.troupe.server.cfg has no line 'port = 7878'");
        Files.writeString(serverConfig, config);
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

    private static int freePort() throws IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
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

    private static void copyTree(Path source, Path target) throws IOException {
        try (Stream<Path> paths = Files.walk(source)) {
            for (Path path : (Iterable<Path>) paths::iterator) {
                Path copy = target.resolve(source.relativize(path).toString());
                if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
                    Files.createDirectories(copy);
                } else {
                    Files.copy(path, copy, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
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
