package io.troupe.distribution;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;


/**
 * Slow consumers in the built distribution, over real sockets: 40 connections of one tenant pipeline
 * {@code echo} requests of 64 KiB and never read a reply. The server stops reading each connection above
 * its output high-water mark, and all of the tenant's connections once their pending output together
 * passes the tenant's {@code maxPendingOutputBytes}; so its heap stays within a figure derived from those
 * limits (the worst case the README gives), below what the connections' high-water marks alone would let
 * them hold, and another tenant is served meanwhile.
 *
 * <p>The heap is measured in the server's JVM with {@code jcmd} ({@link ServerHeap}): "used" right after a
 * full collection, i.e. what is reachable, which the buffers of unread replies are. The server's own
 * statistics do not count the bytes buffered for its connections, and a figure taken without a full
 * collection would measure garbage not yet collected.
 *
 * <p><b>Threading:</b> JUnit's thread, and one writer thread per flooding connection (each blocks in
 * its socket's write once the server stops reading it, and ends when the socket is closed).
 */
class OutputBoundIT {

    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final Duration LOADED = Duration.ofSeconds(15);
    private static final Duration REPLY = Duration.ofSeconds(10);
    private static final Duration STOP = Duration.ofSeconds(20);
    private static final Path JAVA_HOME = Path.of(System.getProperty("java.home"));

    private static final int CONNECTIONS = 40;
    private static final int REPLY_BYTES = 64 << 10;
    /** Requests each writer sends per write: a pipeline. */
    private static final int PIPELINE = 8;
    /** The flooding tenant's maxPendingOutputBytes. */
    private static final long MAX_PENDING_OUTPUT = 4 << 20;
    /**
     * The distribution's per-connection marks (ServerSettings.connectionOptions with its defaults,
     * maxFrameBytes 1 MiB and slowConsumerBytes 16 MiB): not read above 1 MiB of pending output; an input
     * buffer of at most 2 MiB.
     */
    private static final long HIGH_WATER_MARK = 1 << 20;
    private static final long MAX_INPUT_BUFFER = 2 << 20;
    /**
     * What the flood may hold at most: the tenant's bound, plus for each connection its high-water mark,
     * the replies of the requests of one input buffer (accepted before reading stopped), and that input
     * buffer itself.
     */
    private static final long BOUND = MAX_PENDING_OUTPUT + CONNECTIONS * (HIGH_WATER_MARK + 2 * MAX_INPUT_BUFFER);
    /** Heap measurements during the flood, each after a round of the other tenant's requests. */
    private static final int MEASUREMENTS = 5;

    @TempDir
    static Path dir;

    private static Path home;
    private static TroupeProcess troupe;
    private static TestTenants tenants;

    @BeforeAll
    static void startTroupe() throws Exception {
        int port = TestInstallation.freePort();
        home = TestInstallation.copy(dir, port);
        troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME);
        troupe.awaitLineStartingWith("Troupe ready", STARTUP);
        tenants = new TestTenants(home, port);
        tenants.write("flood", "maxConnections = " + CONNECTIONS, "maxPendingOutputBytes = " + MAX_PENDING_OUTPUT);
        tenants.write("calm");
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
    void fortyConnectionsThatNeverReadKeepTheHeapWithinTheLimitsAndAnotherTenantIsServed() throws Exception {
        ServerHeap heap = ServerHeap.of(home, JAVA_HOME);
        List<WireClient> flood = new ArrayList<>();
        ExecutorService writers = Executors.newFixedThreadPool(CONNECTIONS);
        try (WireClient calm = tenants.served("calm", LOADED)) {
            for (int i = 0; i < CONNECTIONS; i++) {
                flood.add(tenants.served("flood", LOADED));
            }
            calm.assertEcho(1, "before", REPLY);
            long baseline = heap.usedAfterFullGc();

            AtomicLong sent = new AtomicLong();
            for (WireClient client : flood) {
                writers.execute(() -> client.pipelineEchoesUntilClosed(REPLY_BYTES, PIPELINE, sent));
            }
            awaitLog("Tenant 'flood' is throttled by maxPendingOutputBytes (" + MAX_PENDING_OUTPUT + ")");

            long peak = 0;
            long slowestCalm = 0;
            for (int round = 0; round < MEASUREMENTS; round++) {
                for (int i = 0; i < 10; i++) {
                    long start = System.nanoTime();
                    calm.assertEcho(10 + round * 10 + i, "served during the flood", REPLY);
                    slowestCalm = Math.max(slowestCalm, System.nanoTime() - start);
                }
                peak = Math.max(peak, heap.usedAfterFullGc() - baseline);
            }
            long requested = sent.get() * REPLY_BYTES;
            System.out.printf("OutputBoundIT: heap %d MiB at the start, at most %d MiB more during the flood "
                    + "(bound %d MiB); the flood sent %d MiB of requests; the other tenant's slowest echo %d ms%n",
                    baseline >> 20, peak >> 20, BOUND >> 20, requested >> 20,
                    TimeUnit.NANOSECONDS.toMillis(slowestCalm));
            assertTrue(peak <= BOUND, "the heap grew by " + peak + " bytes, above " + BOUND);
            // each connection alone is read up to its high-water mark: without the tenant's bound they would
            // hold at least that much each
            assertTrue(peak < CONNECTIONS * HIGH_WATER_MARK, "the heap grew by " + peak + " bytes: the tenant's "
                    + "bound did not hold its connections below their high-water marks");
            assertTrue(slowestCalm < TimeUnit.SECONDS.toNanos(2), "the other tenant waited " + slowestCalm + " ns");
        } finally {
            flood.forEach(WireClient::close);
            writers.shutdown();
            assertTrue(writers.awaitTermination(REPLY.toSeconds(), TimeUnit.SECONDS), "writers still blocked");
        }
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
