package io.troupe.distribution;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.troupe.distribution.plugins.HeapHogPlugin;

/**
 * Memory exhaustion in the built distribution at {@code -Xmx256m}, over real sockets (issue 19, third row:
 * the probe that left the process up half-broken after 21 {@code OutOfMemoryError}s).
 *
 * <ul>
 *   <li>40 connections of one tenant, with the shipped limits, pipeline 64 KiB {@code echo} requests and never
 *       read a reply. The server either keeps serving another tenant, with {@code /health/live} saying live,
 *       or ends at once with exit status 70 and a FATAL line in {@code log/troupe.log}; never up and broken.
 *       With the reactor's output budget (a quarter of the heap) it keeps serving.</li>
 *   <li>A plugin whose thread eats the heap: whichever thread meets the first {@code OutOfMemoryError}, the
 *       process ends with exit status 70, the FATAL line in the log and on stderr.</li>
 * </ul>
 *
 * <p><b>Threading:</b> JUnit's thread, and one writer thread per flooding connection (each blocks in its
 * socket's write once the server stops reading it, and ends when the socket is closed).
 */
class MemoryExhaustionIT {

    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final Duration LOADED = Duration.ofSeconds(15);
    private static final Duration REPLY = Duration.ofSeconds(10);
    private static final Duration STOP = Duration.ofSeconds(20);
    /** How long the flood runs while the other tenant is checked. */
    private static final Duration FLOOD = Duration.ofSeconds(20);
    private static final Path JAVA_HOME = Path.of(System.getProperty("java.home"));
    private static final String HEAP = "-Xmx256m";
    private static final int FATAL_EXIT = 70;
    private static final String STDERR_FATAL = "troupe: FATAL: java.lang.OutOfMemoryError";

    private static final int CONNECTIONS = 40;
    private static final int REPLY_BYTES = 64 << 10;
    private static final int PIPELINE = 8;

    @TempDir
    Path dir;

    @Test
    void fortyConnectionsThatNeverReadLeaveTheServerServingOrEndItWithAFatalRecord() throws Exception {
        int port = TestInstallation.freePort();
        Path home = TestInstallation.copy(dir, port);
        HttpEndpoint http = new HttpEndpoint(home);
        int httpPort = http.port();
        try (TroupeProcess troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME, HEAP)) {
            troupe.awaitLineStartingWith("Troupe ready", STARTUP);
            TestTenants tenants = new TestTenants(home, port);
            tenants.write("flood", "maxConnections = " + CONNECTIONS);
            tenants.write("calm");
            List<WireClient> flood = new ArrayList<>();
            ExecutorService writers = Executors.newFixedThreadPool(CONNECTIONS);
            long answered = 0;
            boolean ended = false;
            try (WireClient calm = tenants.served("calm", LOADED)) {
                for (int i = 0; i < CONNECTIONS; i++) {
                    flood.add(tenants.served("flood", LOADED));
                }
                calm.assertEcho(1, "before", REPLY);
                AtomicLong sent = new AtomicLong();
                for (WireClient client : flood) {
                    writers.execute(() -> client.pipelineEchoesUntilClosed(REPLY_BYTES, PIPELINE, sent));
                }
                long deadline = System.nanoTime() + FLOOD.toNanos();
                for (long corrId = 2; System.nanoTime() - deadline < 0; corrId++) {
                    if (!troupe.isAlive()) {
                        ended = true;
                        break;
                    }
                    try {
                        calm.assertEcho(corrId, "served during the flood", REPLY);
                        answered++;
                        HttpResponse<String> live = http.get("127.0.0.1", httpPort, "/health/live");
                        assertEquals(200, live.statusCode(), "up but not live: " + live.body());
                    } catch (IOException | AssertionError failure) {
                        if (troupe.isAlive() && !exitsSoon(troupe)) {
                            throw new AssertionError("the server is up but failed the other tenant or /health/live"
                                    + " during the flood" + troupe.transcript(), failure);
                        }
                        ended = true;
                        break;
                    }
                }
                System.out.printf("MemoryExhaustionIT: %d echoes of the other tenant answered during the flood; the"
                        + " flood sent %d MiB of requests; the server %s%n", answered,
                        (sent.get() * REPLY_BYTES) >> 20, ended ? "ended" : "kept serving");
            } finally {
                flood.forEach(WireClient::close);
                writers.shutdown();
                assertTrue(writers.awaitTermination(REPLY.toSeconds(), TimeUnit.SECONDS), "writers still blocked");
            }
            String log = Files.readString(home.resolve("log/troupe.log"), UTF_8);
            if (ended) {
                assertEquals(FATAL_EXIT, troupe.awaitExit(STOP), troupe::transcript);
                assertTrue(log.contains("FATAL: java.lang.OutOfMemoryError"), "no FATAL line in log/troupe.log");
            } else {
                assertFalse(log.contains("java.lang.OutOfMemoryError"), "an OutOfMemoryError left the server running");
                assertTrue(answered > 0, "the other tenant got no answer during the flood");
                assertEquals(0, troupe.terminate(STOP), troupe::transcript);
            }
        }
    }

    @Test
    void aPluginThatEatsTheHeapEndsTheProcessWithAFatalRecordAndStatusSeventy() throws Exception {
        int port = TestInstallation.freePort();
        Path home = TestInstallation.copy(dir, port);
        try (TroupeProcess troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME, HEAP)) {
            troupe.awaitLineStartingWith("Troupe ready", STARTUP);
            HeapHogPlugin.deployTo(home.resolve("deploy"), "heap-hog.jar");
            assertEquals(FATAL_EXIT, troupe.awaitExit(Duration.ofSeconds(60)), troupe::transcript);
            String log = Files.readString(home.resolve("log/troupe.log"), UTF_8);
            List<String> fatal = log.lines().filter(line -> line.contains("FATAL: java.lang.OutOfMemoryError"))
                    .toList();
            assertEquals(1, fatal.size(), "not one FATAL line in log/troupe.log: " + fatal);
            assertTrue(fatal.get(0).contains("Troupe halts now with exit status 70"), fatal.get(0));
            assertTrue(troupe.stderr().stream().anyMatch(line -> line.startsWith(STDERR_FATAL)),
                    troupe::transcript);
            System.out.println("MemoryExhaustionIT: " + fatal.get(0));
        }
    }

    /** Whether the process ends within a few seconds: a fatal error being handled is given its time. */
    private static boolean exitsSoon(TroupeProcess troupe) throws InterruptedException, ExecutionException {
        Optional<ProcessHandle> process = ProcessHandle.of(troupe.pid());
        if (process.isEmpty()) {
            return true;
        }
        try {
            process.get().onExit().get(10, TimeUnit.SECONDS);
            return true;
        } catch (TimeoutException stillRunning) {
            return false;
        }
    }
}
