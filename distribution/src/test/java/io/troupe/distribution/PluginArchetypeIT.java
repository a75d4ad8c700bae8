package io.troupe.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.troupe.client.TroupeClient;
import io.troupe.client.TroupeClientException;

/**
 * The README's way to start a plugin, end to end: {@code mvn archetype:generate} with Troupe's archetype
 * (from the local repository, where {@code mvn install} of this project put it), {@code mvn package} of the
 * generated project (its unit test runs on the embedded runtime), the jar copied into the {@code deploy/}
 * folder of a started installation, and its handler called over the network.
 *
 * <p><b>Threading:</b> JUnit's thread; {@link TroupeProcess} reads the server's output on threads of its
 * own.
 */
class PluginArchetypeIT {

    private static final String TROUPE_VERSION = System.getProperty("troupe.version", "0.1.0");
    /** The archetype plugin of Troupe's own build: named in full, so no prefix or version is looked up. */
    private static final String GENERATE = "org.apache.maven.plugins:maven-archetype-plugin:3.3.1:generate";
    private static final Duration GENERATE_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(5);
    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final Duration DEPLOYED = Duration.ofSeconds(30);
    private static final Duration REPLY = Duration.ofSeconds(20);
    private static final Duration STOP = Duration.ofSeconds(10);
    private static final Pattern TESTS_RUN = Pattern.compile("(?m)^\\[INFO\\] Tests run: (\\d+), Failures: 0, Errors: 0");

    @TempDir
    Path dir;

    @Test
    void aPluginGeneratedFromTheArchetypeBuildsTestsDeploysAndAnswers() throws Exception {
        Path project = generate();

        MavenRun.Result build = MavenRun.run(project, BUILD_TIMEOUT, "package").assertSucceeded();
        Matcher tests = TESTS_RUN.matcher(build.output());
        assertTrue(tests.find() && Integer.parseInt(tests.group(1)) > 0,
                "the generated project's unit tests did not run:\n" + build.output());
        Path jar = project.resolve("target/hello-plugin-1.0.0-SNAPSHOT.jar");
        assertTrue(Files.isRegularFile(jar), "no " + jar + " after mvn package:\n" + build.output());

        int port = TestInstallation.freePort();
        Path home = TestInstallation.copy(dir, port);
        try (TroupeProcess troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir,
                Path.of(System.getProperty("java.home")))) {
            troupe.awaitLineStartingWith("Troupe ready", STARTUP);
            Files.copy(jar, home.resolve("deploy/hello-plugin.jar"));
            awaitRunning(home, "hello-plugin.jar");

            try (TroupeClient client = TroupeClient.builder().port(port).tenant("demo").token(demoToken(home))
                    .build()) {
                client.connect().get(REPLY.toSeconds(), TimeUnit.SECONDS);
                assertEquals("Hello, Ada!", requestOnceServed(client, "hello", "Ada"));
                assertEquals("Hello, Grace!", requestOnceServed(client, "hello", "Grace"));
                ExecutionException empty = assertThrows(ExecutionException.class,
                        () -> client.request("hello", new byte[0]).get(REPLY.toSeconds(), TimeUnit.SECONDS));
                assertEquals("bad.request", ((TroupeClientException) empty.getCause()).code(), empty::toString);
            }
            assertEquals(0, troupe.terminate(STOP), troupe::transcript);
        }
    }

    /** {@code mvn archetype:generate} as the README gives it; returns the generated project's folder. */
    private Path generate() throws IOException, InterruptedException {
        MavenRun.run(dir, GENERATE_TIMEOUT, GENERATE,
                "-DarchetypeGroupId=io.troupe",
                "-DarchetypeArtifactId=troupe-plugin-archetype",
                "-DarchetypeVersion=" + TROUPE_VERSION,
                "-DgroupId=com.example",
                "-DartifactId=hello-plugin",
                "-Dpackage=com.example.hello").assertSucceeded();
        Path project = dir.resolve("hello-plugin");
        for (String file : new String[] {"pom.xml", "src/main/java/com/example/hello/HelloHandler.java",
                "src/main/java/com/example/hello/GreeterFactory.java",
                "src/test/java/com/example/hello/HelloHandlerTest.java"}) {
            assertTrue(Files.isRegularFile(project.resolve(file)), "archetype:generate wrote no " + file);
        }
        String pom = Files.readString(project.resolve("pom.xml"));
        assertTrue(!pom.contains("<parent>") && pom.contains("<troupe.version>" + TROUPE_VERSION + "</troupe.version>"),
                "the generated pom must stand alone and name Troupe " + TROUPE_VERSION + ":\n" + pom);
        return project;
    }

    /** Waits until the host reports {@code jar} running in {@code deploy/.status/}; fails on another outcome. */
    private static void awaitRunning(Path home, String jar) throws IOException {
        Path status = home.resolve("deploy/.status").resolve(jar);
        long deadline = System.nanoTime() + DEPLOYED.toNanos();
        while (true) {
            if (Files.isRegularFile(status)) {
                Properties outcome = new Properties();
                try (Reader in = Files.newBufferedReader(status)) {
                    outcome.load(in);
                }
                String value = outcome.getProperty("outcome", "");
                if (value.equals("running")) {
                    return;
                }
                if (!value.isEmpty()) {
                    throw new AssertionError("deploy/" + jar + " was not started: " + outcome);
                }
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("no outcome for deploy/" + jar + " within " + DEPLOYED.toSeconds() + " s");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
    }

    /**
     * The reply to {@code name}: asked again while the answer is {@code no.handler}, since Declarative Services
     * registers the plugin's handler shortly after the bundle has started.
     */
    private static String requestOnceServed(TroupeClient client, String name, String text) throws Exception {
        long deadline = System.nanoTime() + DEPLOYED.toNanos();
        while (true) {
            try {
                byte[] reply = client.request(name, text.getBytes(StandardCharsets.UTF_8))
                        .get(REPLY.toSeconds(), TimeUnit.SECONDS);
                return new String(reply, StandardCharsets.UTF_8);
            } catch (ExecutionException e) {
                boolean notYet = e.getCause() instanceof TroupeClientException failure
                        && failure.code().equals("no.handler");
                if (!notYet || System.nanoTime() - deadline > 0) {
                    throw e;
                }
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
    }

    private static String demoToken(Path home) throws IOException {
        String token = Files.readString(home.resolve("etc/io.troupe.tenant-demo.token")).strip();
        assertTrue(token.length() >= 32, "no token in etc/io.troupe.tenant-demo.token");
        return token;
    }
}
