package io.troupe.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the {@code Dockerfile} at the root of the source tree relies on, checked against the built
 * distribution ({@code target/troupe}), since no Docker engine runs here: the paths it copies exist, its
 * volumes are the distribution's folders, its entry point and health check are executable scripts of the
 * distribution, its ports are the configured ones. Then the two scripts run for real with bash: the entry
 * point fills an empty {@code etc/} from the image's copy (a fresh volume hides the image's files) and
 * starts Troupe; the health check answers for a real HTTP server.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread; {@link TroupeProcess} reads the process's output
 * on threads of its own; the HTTP server of the health check test answers on its own thread.
 */
class DockerfileLayoutIT {

    private static final Path SOURCES = Path.of("..").toAbsolutePath().normalize();
    private static final Path DOCKERFILE = SOURCES.resolve("Dockerfile");
    private static final Path BUILT = Path.of(System.getProperty("troupe.distribution", "target/troupe"));
    /** Where the runtime stage puts the distribution. */
    private static final String IMAGE_HOME = "/opt/troupe/";
    /** Where the build stage puts the sources. */
    private static final String BUILD_SOURCES = "/src/";
    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final Duration STOP = Duration.ofSeconds(20);
    private static final Duration SCRIPT = Duration.ofSeconds(20);
    private static final Path JAVA_HOME = Path.of(System.getProperty("java.home"));

    @TempDir
    Path dir;

    @Test
    void theBuildStageRunsTheReadmesBuildOnTheWholeSourceTree() throws IOException {
        List<Instruction> build = stage("build");

        assertTrue(build.contains(new Instruction("WORKDIR", "/src")), build.toString());
        assertTrue(build.contains(new Instruction("COPY", ". .")), build.toString());
        String command = "mvn -B -q -DskipTests package";
        assertTrue(build.stream().anyMatch(i -> i.keyword().equals("RUN") && i.arguments().endsWith(command)),
                "the build stage runs " + command + ": " + build);
        assertTrue(Files.readString(SOURCES.resolve("README.md")).contains(command),
                "the README builds with " + command);
        List<String> ignored = Files.readAllLines(SOURCES.resolve(".dockerignore")).stream()
                .filter(line -> !line.isBlank() && !line.startsWith("#")).toList();
        assertTrue(ignored.contains("**/target/"), "built output stays out of the build context: " + ignored);
        // .mvn/ marks the project root and baseline/ holds the released API jars the build compares with
        for (String needed : List.of("pom.xml", ".mvn/", "baseline/", "distribution/", "distribution/src/")) {
            assertFalse(ignored.contains(needed), needed + " is needed by the build: " + ignored);
        }
    }

    @Test
    void theRuntimeStageCopiesTheBuiltDistributionAndItsFoldersAreTheVolumes() throws IOException {
        List<Instruction> runtime = stage(null);
        Instruction copy = only(runtime, "COPY");

        Matcher fromBuild = Pattern.compile("--from=build (\\S+) (\\S+)").matcher(copy.arguments());
        assertTrue(fromBuild.matches(), copy.toString());
        assertTrue(fromBuild.group(1).startsWith(BUILD_SOURCES), copy.toString());
        Path copied = SOURCES.resolve(fromBuild.group(1).substring(BUILD_SOURCES.length()));
        assertEquals(BUILT.toAbsolutePath().normalize(), copied,
                "the image copies the distribution this module builds");
        assertEquals("/opt/troupe", fromBuild.group(2));
        assertTrue(Files.isExecutable(copied.resolve("bin/troupe")), copied + " is a built distribution");

        Set<String> volumes = new TreeSet<>();
        for (String volume : jsonArray(only(runtime, "VOLUME").arguments())) {
            assertTrue(volume.startsWith(IMAGE_HOME), volume);
            String folder = volume.substring(IMAGE_HOME.length());
            assertTrue(Files.isDirectory(BUILT.resolve(folder)), folder + "/ is a folder of the distribution");
            volumes.add(folder);
        }
        assertEquals(Set.of("data", "deploy", "etc", "log"), volumes);
        assertEquals("troupe", only(runtime, "USER").arguments(), "not root");
    }

    @Test
    void theEntryPointAndTheHealthCheckAreExecutableScriptsOfTheDistribution() throws IOException {
        List<Instruction> runtime = stage(null);

        List<String> entrypoint = jsonArray(only(runtime, "ENTRYPOINT").arguments());
        String healthcheck = only(runtime, "HEALTHCHECK").arguments();
        Matcher command = Pattern.compile(".*CMD (\\[.*\\])").matcher(healthcheck);
        assertTrue(command.matches(), healthcheck);
        List<String> check = jsonArray(command.group(1));

        assertEquals(List.of(IMAGE_HOME + "bin/troupe-entrypoint"), entrypoint);
        assertEquals(List.of(IMAGE_HOME + "bin/troupe-healthcheck"), check);
        for (String script : List.of(entrypoint.get(0), check.get(0))) {
            Path built = BUILT.resolve(script.substring(IMAGE_HOME.length()));
            assertTrue(Files.isExecutable(built), built + " is executable");
            assertTrue(Files.readString(built).startsWith("#!/usr/bin/env bash\n"), built + " is a bash script");
        }
    }

    @Test
    void theExposedPortsAreTheMessageServersAndTheHealthChecksAndTheLogLineTheImageRewritesExists()
            throws IOException {
        List<Instruction> runtime = stage(null);

        assertEquals("7878 7879", only(runtime, "EXPOSE").arguments());
        assertEquals("7878", config("etc/io.troupe.server.cfg").getProperty("port"));
        Path http = BUILT.resolve("etc/io.troupe.http.cfg");
        if (Files.exists(http)) {
            assertEquals("7879", config("etc/io.troupe.http.cfg").getProperty("port"));
        }
        assertTrue(Files.readString(BUILT.resolve("bin/troupe-healthcheck"))
                .contains("port=\"${TROUPE_HEALTH_PORT:-7879}\""), "the health check asks port 7879");
        String rewrite = "sed -i 's/^console = auto$/console = true/' /opt/troupe/etc/io.troupe.log.cfg";
        assertTrue(runtime.stream().anyMatch(i -> i.keyword().equals("RUN") && i.arguments().contains(rewrite)),
                "the image copies the log to the console");
        assertTrue(Files.readAllLines(BUILT.resolve("etc/io.troupe.log.cfg")).contains("console = auto"),
                "the line the image rewrites");
        assertTrue(runtime.stream().anyMatch(i -> i.keyword().equals("RUN")
                && i.arguments().contains("cp -R /opt/troupe/etc /opt/troupe/deploy /opt/troupe/defaults/")),
                "the image keeps the copies the entry point fills empty volumes from");
    }

    /**
     * A container whose {@code etc/} is a fresh, empty volume and whose {@code deploy/} volume holds the
     * operator's one plugin: the entry point fills {@code etc/} from {@code defaults/etc}, leaves
     * {@code deploy/} as it is, and Troupe starts and stops on SIGTERM.
     */
    @Test
    void theEntryPointFillsAnEmptyEtcFromTheImagesCopyLeavesAFilledDeployAloneAndStartsTroupe() throws Exception {
        int port = TestInstallation.freePort();
        Path home = TestInstallation.copy(dir, port);
        imageDefaults(home);
        List<String> image = names(home.resolve("defaults/etc"));
        emptyFolder(home.resolve("etc"));
        emptyFolder(home.resolve("deploy"));
        Files.copy(home.resolve("defaults/deploy/echo.jar"), home.resolve("deploy/echo.jar"));

        try (TroupeProcess troupe = TroupeProcess.start(home.resolve("bin/troupe-entrypoint"), dir, JAVA_HOME)) {
            assertEquals("Troupe ready on 127.0.0.1:" + port, troupe.awaitLineStartingWith("Troupe ready", STARTUP));

            assertTrue(troupe.stderr().contains("troupe-entrypoint: etc/ was empty: filled it with the image's etc/ ("
                    + image.size() + " entries)"), troupe::transcript);
            assertTrue(names(home.resolve("etc")).containsAll(image), names(home.resolve("etc")).toString());
            assertEquals(Files.readString(home.resolve("defaults/etc/io.troupe.server.cfg")),
                    Files.readString(home.resolve("etc/io.troupe.server.cfg")));
            assertEquals(List.of("echo.jar"), names(home.resolve("deploy")).stream()
                    .filter(name -> name.endsWith(".jar")).toList(), "deploy/ held a plugin: left alone");
            assertFalse(troupe.stderr().stream().anyMatch(line -> line.contains("deploy/ was empty")),
                    troupe::transcript);
            assertEquals(0, troupe.terminate(STOP), troupe::transcript);
        }
    }

    @Test
    void theEntryPointRefusesToSeedAFolderOtherThanEtcAndDeployBeforeStartingAnything() throws Exception {
        Path home = TestInstallation.copy(dir, TestInstallation.freePort());
        imageDefaults(home);

        ProcessBuilder builder = new ProcessBuilder(home.resolve("bin/troupe-entrypoint").toString())
                .redirectErrorStream(true);
        builder.environment().put("TROUPE_SEED", "etc lib");
        Run run = run(builder);

        assertEquals(1, run.exit());
        assertEquals("troupe-entrypoint: error: TROUPE_SEED names 'lib'; only etc and deploy can be seeded\n",
                run.output());
        assertFalse(Files.exists(home.resolve("data/troupe.lock")), "Troupe did not start");
    }

    @Test
    void theHealthCheckPassesOnlyWhenReadyAnswers200AndPrintsTheAnswer() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8);
        server.createContext("/health/", exchange -> {
            boolean ready = exchange.getRequestURI().getPath().equals("/health/ready");
            byte[] body = ("{\"status\":\"" + (ready ? "UP" : "DOWN") + "\"}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(ready ? 200 : 503, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        try {
            Path check = BUILT.resolve("bin/troupe-healthcheck");
            int port = server.getAddress().getPort();

            Run ready = run(healthCheck(check, port));
            Run down = run(healthCheck(check, port, "/health/other"));
            server.stop(0);
            Run closed = run(healthCheck(check, port));

            assertEquals(new Run(0, "HTTP/1.1 200 OK\n{\"status\":\"UP\"}\n"), ready);
            assertEquals(new Run(1, "HTTP/1.1 503 Service Unavailable\n{\"status\":\"DOWN\"}\n"), down);
            assertEquals(new Run(1, "troupe-healthcheck: nothing listens on 127.0.0.1:" + port + "\n"), closed);
        } finally {
            server.stop(0);
        }
    }

    /** What the runtime stage's RUN does: keeps the image's etc/ and deploy/ in defaults/. */
    private static void imageDefaults(Path home) throws IOException {
        TestInstallation.copyTree(home.resolve("etc"), home.resolve("defaults/etc"));
        TestInstallation.copyTree(home.resolve("deploy"), home.resolve("defaults/deploy"));
    }

    private static void emptyFolder(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            for (Path file : files.toList()) {
                Files.delete(file);
            }
        }
    }

    private static List<String> names(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(file -> file.getFileName().toString()).sorted().toList();
        }
    }

    private static ProcessBuilder healthCheck(Path script, int port, String... arguments) {
        List<String> command = new ArrayList<>(List.of(script.toString()));
        command.addAll(Arrays.asList(arguments));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("TROUPE_HEALTH_PORT", Integer.toString(port));
        return builder;
    }

    private record Run(int exit, String output) {
    }

    private static Run run(ProcessBuilder builder) throws IOException, InterruptedException {
        Process process = builder.redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).start();
        try (InputStream out = process.getInputStream()) {
            String output = new String(out.readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(process.waitFor(SCRIPT.toSeconds(), TimeUnit.SECONDS), "the script ended: " + output);
            return new Run(process.exitValue(), output);
        } finally {
            process.destroyForcibly();
        }
    }

    private static Properties config(String file) throws IOException {
        Properties properties = new Properties();
        try (var reader = Files.newBufferedReader(BUILT.resolve(file), StandardCharsets.UTF_8)) {
            properties.load(reader);
        }
        return properties;
    }

    /** One Dockerfile instruction: its keyword in capitals, and its arguments with continuation lines joined. */
    private record Instruction(String keyword, String arguments) {
    }

    /** The instructions of the stage named {@code name} ({@code FROM ... AS name}), or of the last stage for null. */
    private static List<Instruction> stage(String name) throws IOException {
        List<List<Instruction>> stages = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (Instruction instruction : instructions()) {
            if (instruction.keyword().equals("FROM")) {
                stages.add(new ArrayList<>());
                String[] words = instruction.arguments().split("\\s+");
                names.add(words.length == 3 && words[1].equalsIgnoreCase("AS") ? words[2] : null);
            } else {
                assertFalse(stages.isEmpty(), "an instruction before FROM: " + instruction);
                stages.get(stages.size() - 1).add(instruction);
            }
        }
        assertFalse(stages.isEmpty(), "no FROM in " + DOCKERFILE);
        if (name == null) {
            return stages.get(stages.size() - 1);
        }
        int index = names.indexOf(name);
        assertTrue(index >= 0, "no stage " + name + " in " + DOCKERFILE + ": " + names);
        return stages.get(index);
    }

    private static List<Instruction> instructions() throws IOException {
        List<Instruction> instructions = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : Files.readAllLines(DOCKERFILE)) {
            String stripped = line.strip();
            if (current.length() == 0 && (stripped.isEmpty() || stripped.startsWith("#"))) {
                continue; // a comment, or the parser directive of the first line
            }
            if (stripped.endsWith("\\")) {
                current.append(stripped, 0, stripped.length() - 1).append(' ');
                continue;
            }
            current.append(stripped);
            String[] parts = current.toString().strip().split("\\s+", 2);
            instructions.add(new Instruction(parts[0].toUpperCase(), parts.length > 1
                    ? parts[1].replaceAll("\\s+", " ") : ""));
            current.setLength(0);
        }
        return instructions;
    }

    private static Instruction only(List<Instruction> stage, String keyword) {
        List<Instruction> found = stage.stream().filter(i -> i.keyword().equals(keyword)).toList();
        assertEquals(1, found.size(), "one " + keyword + " in the stage: " + stage);
        return found.get(0);
    }

    /** The strings of a JSON array of plain strings, as Dockerfiles write exec forms and volume lists. */
    private static List<String> jsonArray(String text) {
        Matcher array = Pattern.compile("\\[(.*)\\]").matcher(text.strip());
        assertTrue(array.matches(), "not a JSON array: " + text);
        return Arrays.stream(array.group(1).split(","))
                .map(String::strip)
                .peek(item -> assertTrue(item.matches("\"[^\"\\\\]*\""), "not a plain JSON string: " + item))
                .map(item -> item.substring(1, item.length() - 1))
                .collect(Collectors.toList());
    }
}
