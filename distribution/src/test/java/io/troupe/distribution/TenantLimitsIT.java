package io.troupe.distribution;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.troupe.protocol.ErrorCode;
import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameEncoder;
import io.troupe.protocol.FrameType;

/**
 * A tenant's limits in the built distribution, over real sockets: each limit that refuses does so with
 * its error code; the rate limits throttle (the tenant's connections are read only as fast as the limit
 * allows), so does the queue limit (until the tenant's actors catch up), and every request is answered;
 * a changed file applies to open sessions; a removed tenant's sessions are told why in their BYE, and
 * the tenant comes back with fresh actors. The tenants are written to {@code etc/} as a user would, and
 * FileInstall (polling every second) loads them.
 *
 * <p><b>Threading:</b> JUnit's thread; one Troupe process for the class, whose output
 * {@link TroupeProcess}'s threads read.
 */
class TenantLimitsIT {

    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final Duration LOADED = Duration.ofSeconds(15);
    private static final Duration REPLY = Duration.ofSeconds(10);
    private static final Duration STOP = Duration.ofSeconds(10);
    private static final Path JAVA_HOME = Path.of(System.getProperty("java.home"));
    private static final String TOKEN = "t0ken-t0ken-t0ken-t0ken-t0ken-t0ken"; // at least 32 characters

    @TempDir
    static Path dir;

    private static Path home;
    private static int port;
    private static TroupeProcess troupe;

    @BeforeAll
    static void startTroupe() throws Exception {
        port = TestInstallation.freePort();
        home = TestInstallation.copy(dir, port);
        // burn (a handler that keeps its worker busy for the microseconds asked) fills a tenant's queue
        Files.copy(Path.of(System.getProperty("troupe.burnPlugin")), home.resolve("deploy/burn.jar"));
        troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME);
        troupe.awaitLineStartingWith("Troupe ready", STARTUP);
    }

    @AfterAll
    static void stopTroupe() throws Exception {
        if (troupe != null) {
            try {
                assertEquals(0, troupe.terminate(STOP), troupe::transcript);
            } finally {
                troupe.close();
            }
        }
    }

    @Test
    void eachLimitThatThrottlingCannotHelpIsRefusedWithItsErrorCode() throws Exception {
        writeTenant("conn", "maxConnections = 1");
        try (WireClient first = served("conn");
             WireClient second = WireClient.connect(port)) {
            Frame refused = second.hello("conn", TOKEN, REPLY);
            assertError(ErrorCode.QUOTA_CONNECTIONS.code(), refused);
            assertEquals(Optional.empty(), second.next(REPLY), "quota.connections closes the connection");
            assertReply("still served", first, 2, "echo", "still served");
        }

        writeTenant("frames", "maxFrameBytes = 2048");
        try (WireClient client = served("frames")) {
            assertReply("x".repeat(1000), client, 2, "echo", "x".repeat(1000));
            client.send(WireClient.request(3, "echo", "x".repeat(4096)));
            Frame tooLarge = client.expect(REPLY);
            assertError(ErrorCode.FRAME_TOO_LARGE.code(), tooLarge);
            assertTrue(tooLarge.text().contains("2048"), tooLarge.text());
            assertEquals(Optional.empty(), client.next(REPLY), "frame.too_large closes the connection");
        }

        writeTenant("actors", "maxActors = 1");
        try (WireClient client = served("actors")) {
            assertReply("one actor", client, 2, "echo", "one actor");
            client.send(WireClient.request(3, "wordcount", "a second actor"));
            Frame limit = client.expect(REPLY);
            assertError("tenant.limit.actors", limit);
            assertEquals(3, limit.corrId());
            assertReply("the connection stays open", client, 4, "echo", "the connection stays open");
        }

        writeTenant("scoped", "handlers = echo, counter.get");
        try (WireClient client = served("scoped")) {
            client.send(WireClient.request(2, "wordcount", "a b"));
            assertError(ErrorCode.NO_HANDLER.code(), client.expect(REPLY));
            assertReply("allowed", client, 3, "echo", "allowed");
        }

        writeTenant("big", "maxFrameBytes = 4194304");
        awaitLog("maxFrameBytes = 4194304 is above the server's maxFrameBytes = 1048576");
    }

    @Test
    void aByteRateThrottlesTheTenantsReadsAnswersEveryRequestAndLeavesOtherTenantsAlone() throws Exception {
        int rate = 50_000;
        writeTenant("bytes", "maxBytesPerSecond = " + rate);
        writeTenant("neighbour");
        try (WireClient client = served("bytes");
             WireClient neighbour = served("neighbour")) {
            String content = "b".repeat(1000);
            List<Frame> pipeline = new ArrayList<>();
            for (int i = 1; i <= 200; i++) {
                pipeline.add(WireClient.request(i, "echo", content));
            }
            long bytes = pipeline.stream().mapToLong(FrameEncoder::encodedSize).sum();
            long start = System.nanoTime();
            client.send(pipeline);

            assertReply("next door", neighbour, 2, "echo", "next door");
            long neighbourNanos = System.nanoTime() - start;
            assertTrue(neighbourNanos < TimeUnit.SECONDS.toNanos(1), "the neighbour waited " + neighbourNanos + " ns");
            awaitLog("Tenant 'bytes' is throttled by maxBytesPerSecond (" + rate + ")");

            for (int i = 1; i <= 200; i++) {
                assertReplyTo(i, content, client.expect(REPLY));
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            double measured = (bytes - rate) / seconds; // the first second's worth passes at once
            assertTrue(measured <= rate * 1.1, measured + " bytes/s after the burst, in " + seconds + " s");
            assertTrue(seconds < 15, "paced, not stalled: " + seconds + " s");
            awaitLog("Tenant 'bytes' is no longer throttled by maxBytesPerSecond: throttled ");
            String row = tenantsRow("bytes", "bytesPerSecond ");
            assertTrue(row.contains("200"), row);
        }
    }

    @Test
    void aRequestRateThrottlesAllTheTenantsConnectionsTogetherAndEveryRequestIsAnswered() throws Exception {
        int rate = 20;
        writeTenant("requests", "maxRequestsPerSecond = " + rate);
        try (WireClient a = served("requests");
             WireClient b = served("requests")) {
            List<Frame> pipeline = new ArrayList<>();
            for (int i = 1; i <= 40; i++) {
                pipeline.add(WireClient.request(i, "echo", "r" + i));
            }
            long start = System.nanoTime();
            a.send(pipeline);
            b.send(pipeline);
            for (WireClient client : List.of(a, b)) {
                for (int i = 1; i <= 40; i++) {
                    assertReplyTo(i, "r" + i, client.expect(REPLY));
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            double measured = (80 - rate) / seconds;
            assertTrue(measured <= rate * 1.1 && seconds < 10, measured + " requests/s after the burst, " + seconds
                    + " s");
            String row = tenantsRow("requests", "requestsPerSecond ");
            assertTrue(row.contains("80"), row);
        }
    }

    @Test
    void atItsQueueLimitTheTenantIsThrottledUntilItsActorsCatchUpAndEveryRequestIsAnswered() throws Exception {
        writeTenant("queue", "maxQueuedMessages = 8");
        try (WireClient client = served("queue")) {
            List<Frame> pipeline = new ArrayList<>();
            for (int i = 1; i <= 100; i++) {
                pipeline.add(WireClient.request(i, "burn", "2000"));
            }
            client.send(pipeline);
            Set<Long> answered = new TreeSet<>();
            for (int i = 1; i <= 100; i++) {
                Frame reply = client.expect(REPLY);
                assertEquals(FrameType.REPLY, reply.type(), () -> reply + " " + reply.text());
                assertEquals("2000", reply.text());
                answered.add(reply.corrId()); // a pool of burn actors answers in any order
            }
            assertEquals(100, answered.size(), "none lost, none twice: " + answered);
            awaitLog("Tenant 'queue' is throttled by maxQueuedMessages (8)");
            String row = tenantsRow("queue", "queuedMessages ");
            assertTrue(row.contains("100"), row);
        }
    }

    @Test
    void aChangedLimitAppliesToTheTenantsOpenSessions() throws Exception {
        writeTenant("live", "maxRequestsPerSecond = 2");
        try (WireClient client = served("live")) {
            List<Frame> pipeline = new ArrayList<>();
            for (int i = 1; i <= 60; i++) {
                pipeline.add(WireClient.request(i, "echo", "l" + i));
            }
            client.send(pipeline);
            for (int i = 1; i <= 4; i++) {
                assertReplyTo(i, "l" + i, client.expect(REPLY));
            }
            long written = System.nanoTime();
            writeTenant("live", "maxRequestsPerSecond = 0");
            for (int i = 5; i <= 60; i++) {
                assertReplyTo(i, "l" + i, client.expect(REPLY));
            }
            double seconds = (System.nanoTime() - written) / 1e9;
            assertTrue(seconds < 4, "at 2 per second the rest would take 28 s; FileInstall polls every second and "
                    + "the session takes the new rate within a quarter of a second: " + seconds + " s");

            assertReply("y".repeat(3000), client, 61, "echo", "y".repeat(3000));
            writeTenant("live", "maxFrameBytes = 2048");
            tenantsLimits("live", "maxFrameBytes=2048");
            client.send(WireClient.request(62, "echo", "y".repeat(3000)));
            assertError(ErrorCode.FRAME_TOO_LARGE.code(), client.expect(REPLY));
        }
    }

    @Test
    void aRemovedTenantsSessionsAreToldWhyAndTheTenantComesBackWithFreshActorsAndItsStoredState() throws Exception {
        writeTenant("gone");
        try (WireClient client = served("gone")) {
            assertReply("5", client, 2, "counter.add", "5");
            Files.delete(tenantFile("gone"));
            Frame bye = client.expect(LOADED);
            assertEquals(FrameType.BYE, bye.type(), bye::toString);
            assertEquals("tenant removed", bye.text());
            assertEquals(Optional.empty(), client.next(REPLY), "the server closes after its BYE");
        }
        writeTenant("gone");
        try (WireClient client = served("gone")) {
            // its actors are new, but the durable counter's state is removed only by troupe:tenant-purge
            assertReply("5", client, 2, "counter.get", "");
        }
    }

    // ---- helpers ----------------------------------------------------------------------------------

    /** Writes etc/io.troupe.tenant-{@code id}.cfg with the token and {@code lines}, replacing it whole at once. */
    private static void writeTenant(String id, String... lines) throws IOException {
        StringBuilder text = new StringBuilder("token = " + TOKEN + "\n");
        for (String line : lines) {
            text.append(line).append('\n');
        }
        Path part = home.resolve("etc/.tenant-" + id + ".part");
        Files.writeString(part, text, UTF_8);
        Files.move(part, tenantFile(id), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static Path tenantFile(String id) {
        return home.resolve("etc/io.troupe.tenant-" + id + ".cfg");
    }

    /** A session of tenant {@code id}, once FileInstall has loaded its file (retrying HELLO, bounded). */
    private static WireClient served(String id) throws IOException {
        long deadline = System.nanoTime() + LOADED.toNanos();
        while (true) {
            WireClient client = WireClient.connect(port);
            Frame answer = client.hello(id, TOKEN, REPLY);
            if (answer.type() == FrameType.WELCOME) {
                return client;
            }
            client.close();
            if (System.nanoTime() - deadline > 0) {
                fail("tenant '" + id + "' not served within " + LOADED.toSeconds() + " s: " + answer + " "
                        + answer.text());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
    }

    private static void assertReply(String expected, WireClient client, long corrId, String name, String content)
            throws IOException {
        client.send(WireClient.request(corrId, name, content));
        assertReplyTo(corrId, expected, client.expect(REPLY));
    }

    private static void assertReplyTo(long corrId, String expected, Frame frame) {
        assertEquals(FrameType.REPLY, frame.type(), () -> frame + " " + frame.text());
        assertEquals(corrId, frame.corrId(), "in order, none lost");
        assertEquals(expected, frame.text());
    }

    private static void assertError(String code, Frame frame) {
        assertEquals(FrameType.ERROR, frame.type(), frame::toString);
        assertEquals(code, frame.name(), frame::text);
    }

    /** Asks {@code tenants} until the row of {@code id} contains {@code text}; returns that row. */
    private static String tenantsRow(String id, String text) throws Exception {
        return awaitTenantsLine(id + "  ", text);
    }

    /** Asks {@code tenants} until the limits line of {@code id} contains {@code text}. */
    private static void tenantsLimits(String id, String text) throws Exception {
        awaitTenantsLine(id + ": ", text);
    }

    private static String awaitTenantsLine(String prefix, String text) throws Exception {
        long deadline = System.nanoTime() + LOADED.toNanos();
        String line;
        do {
            troupe.send("tenants");
            line = troupe.awaitLineStartingWith(prefix, LOADED);
            if (line.contains(text)) {
                return line;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
        } while (System.nanoTime() - deadline < 0);
        fail("tenants: no line '" + prefix + "...' with '" + text + "': last " + line);
        return line;
    }

    /** Waits until log/troupe.log has a line containing {@code text} (the logger writes every second). */
    private static void awaitLog(String text) throws IOException {
        Path log = home.resolve("log/troupe.log");
        long deadline = System.nanoTime() + LOADED.toNanos();
        while (System.nanoTime() - deadline < 0) {
            if (Files.exists(log) && Files.readString(log, UTF_8).contains(text)) {
                return;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
        fail("log/troupe.log has no line with: " + text);
    }
}
