package io.troupe.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Logging of the embedded runtime on a plain class path, each case in its own {@link IsolatedClassPath} so
 * that SLF4J binds afresh: with Troupe's provider the runtime runs Troupe's logger (here into
 * {@code troupe.home}) and its close stops it; with another provider first on the class path, Troupe logs
 * through that one and writes no file of its own. The system properties the provider reads are set for the
 * test and put back after it.
 */
class PlainClassPathLoggingTest {

    private static final List<String> PROPERTIES = List.of("troupe.home", "troupe.log.console");

    @TempDir
    Path home;

    private final Map<String, String> saved = new HashMap<>();

    @BeforeEach
    void pointTroupeHomeAtATemporaryFolder() {
        PROPERTIES.forEach(key -> saved.put(key, System.getProperty(key)));
        System.setProperty("troupe.home", home.toString());
        System.setProperty("troupe.log.console", "false");
    }

    @AfterEach
    void putThePropertiesBack() {
        saved.forEach((key, value) -> {
            if (value == null) {
                System.clearProperty(key);
            } else {
                System.setProperty(key, value);
            }
        });
    }

    @Test
    void withTroupesProviderTheRuntimeRunsTroupesLoggerAndItsCloseStopsIt() throws Exception {
        try (IsolatedClassPath classPath = new IsolatedClassPath()) {
            AutoCloseable runtime = classPath.start("embedded-logging", "greet", (cp, ctx, message) -> {
                cp.log("com.acme.Greeter", "greeting " + cp.text(message));
                cp.reply(ctx, "ok");
            });
            assertEquals("ok", classPath.ask(runtime, "acme", "greet", "ada"));

            runtime.close();

            assertEquals("io.troupe.host.log.TroupeLoggerFactory", classPath.slf4jFactory());
            List<String> lines = Files.readAllLines(home.resolve("log").resolve("troupe.log"), StandardCharsets.UTF_8);
            assertTrue(lines.stream().anyMatch(line -> line.contains(" INFO  [embedded-logging-worker-1]"
                    + " com.acme.Greeter - greeting ada {actor=") && line.endsWith("tenant=acme}")),
                    "the actor's record names its actor and tenant:\n" + String.join("\n", lines));
            assertTrue(lines.stream().anyMatch(line -> line.endsWith(" - Troupe runtime stopped")), lines.toString());
            assertTrue(lines.get(lines.size() - 1).endsWith(" - Troupe logger stopped"),
                    "closing the only runtime stopped the logger: " + lines.get(lines.size() - 1));
        }
    }

    @Test
    void withAnotherProviderFirstTroupeLogsThroughItAndStartsNoLoggerOfItsOwn() throws Exception {
        Path providers = Files.createDirectories(home.resolve("other-provider/META-INF/services"));
        Files.writeString(providers.resolve("org.slf4j.spi.SLF4JServiceProvider"),
                "org.slf4j.helpers.NOP_FallbackServiceProvider\n");
        try (IsolatedClassPath classPath = new IsolatedClassPath(home.resolve("other-provider").toUri().toURL())) {
            try (AutoCloseable runtime = classPath.start("embedded-other-logging", "greet", (cp, ctx, message) -> {
                cp.log("com.acme.Greeter", "greeting " + cp.text(message));
                cp.reply(ctx, "ok");
            })) {
                assertEquals("ok", classPath.ask(runtime, "acme", "greet", "ada"));
                assertEquals("org.slf4j.helpers.NOPLoggerFactory", classPath.slf4jFactory());
            }
        }
        assertFalse(Files.exists(home.resolve("log")), "Troupe's logger never opened troupe.home/log");
    }
}
