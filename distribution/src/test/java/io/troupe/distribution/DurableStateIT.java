package io.troupe.distribution;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.troupe.client.TroupeClient;
import io.troupe.client.TroupeClientException;

/**
 * The durable counter of the built distribution (every-turn durability, its snapshots in the H2 MVStore
 * file {@code data/state.mv.db}), over real sockets with the Java client:
 * <ul>
 * <li>two tenants add to their counters from pipelined connections; the server's JVM is killed with
 *     SIGKILL in the middle of it; after a restart each tenant's total is at least the highest total a
 *     client was told, at most what its clients sent, and holds only its own adds (tenant B adds a
 *     million at a time, so that any add crossing over shows); a clean stop and start keeps the totals
 *     exactly;</li>
 * <li>the counter is hot-swapped to 2.0.0 under load: no request fails, every add is counted once, one
 *     snapshot is stored for the tenant, and a {@code kill -9} right after shows the store held the live
 *     total (a clean stop would write the state once more, and hide a store left behind by the swap).</li>
 * </ul>
 * When a test fails, the tail of the installation's {@code log/troupe.log} is printed.
 *
 * <p><b>Threading:</b> JUnit's thread drives the test; each load connection has a sender thread, and the
 * client's loop thread completes its requests; what they record is in atomics, read by the test thread.
 */
class DurableStateIT {

    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final Duration REPLY = Duration.ofSeconds(20);
    private static final Duration STOP = Duration.ofSeconds(15);
    private static final Duration PROGRESS = Duration.ofSeconds(30);
    private static final Duration DEPLOY = Duration.ofSeconds(90);
    private static final Path JAVA_HOME = Path.of(System.getProperty("java.home"));
    /** What {@code Process.exitValue()} reports for a process ended by SIGKILL: 128 + 9. */
    private static final int KILLED = 137;
    private static final int LOG_TAIL_LINES = 80;

    private static final String A = "alpha";
    private static final String B = "beta";
    /** Tokens of at least 32 characters, one per tenant; the server migrates them to hashes in the files. */
    private static final String A_TOKEN = "alpha-secret-alpha-secret-alpha-secret";
    private static final String B_TOKEN = "beta-secret-beta-secret-beta-secret-beta";
    /** Tenant A adds 1 per request, tenant B this much: an add of one landing in the other shows. */
    private static final long B_STEP = 1_000_000;
    private static final int CONNECTIONS = 3;
    private static final int WINDOW = 8;
    /** Acknowledged adds per tenant before the kill (or the swap): the load is really running. */
    private static final long MIN_ACKS = 300;

    @RegisterExtension
    final LogTailOnFailure logTail = new LogTailOnFailure();

    @TempDir
    Path dir;

    private Path home;
    private int port;

    @BeforeEach
    void install() throws IOException {
        port = TestInstallation.freePort();
        home = TestInstallation.copy(dir, port);
        Files.writeString(home.resolve("etc/io.troupe.tenant-" + A + ".cfg"), "token = " + A_TOKEN + "\n");
        Files.writeString(home.resolve("etc/io.troupe.tenant-" + B + ".cfg"), "token = " + B_TOKEN + "\n");
    }

    @Test
    void everyAcknowledgedAddOfEachTenantSurvivesKillDashNineDuringLoadAndACleanRestartKeepsTheTotals()
            throws Exception {
        Path store = home.resolve("data/state.mv.db");
        assertTrue(Files.notExists(store), "the distribution ships no store file");
        long aSent;
        long bSent;
        long aAcked;
        long bAcked;
        try (TroupeProcess troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME)) {
            troupe.awaitLineStartingWith("Troupe ready", STARTUP);
            assertTrue(Files.isRegularFile(store), "no " + store + " after the first start");

            try (CounterLoad aLoad = CounterLoad.start(() -> connect(A, A_TOKEN), 1);
                 CounterLoad bLoad = CounterLoad.start(() -> connect(B, B_TOKEN), B_STEP)) {
                await("each tenant has " + MIN_ACKS + " adds acknowledged (or a request failed)", PROGRESS,
                        () -> aLoad.acks() >= MIN_ACKS && bLoad.acks() >= MIN_ACKS
                                || aLoad.failures() + bLoad.failures() > 0,
                        () -> A + " " + aLoad + ", " + B + " " + bLoad);
                assertEquals(0, aLoad.failures() + bLoad.failures(),
                        () -> "requests failed before the kill: " + A + " " + aLoad + ", " + B + " " + bLoad);

                killServerJvm();
                assertEquals(KILLED, troupe.awaitExit(STOP), troupe::transcript);

                aLoad.stop();
                bLoad.stop();
                aSent = aLoad.sent();
                bSent = bLoad.sent();
                aAcked = aLoad.highestAcked();
                bAcked = bLoad.highestAcked();
                System.out.println("[durable kill -9] " + A + " " + aLoad + "; " + B + " " + bLoad);
            }
        }

        long aTotal;
        long bTotal;
        try (TroupeProcess troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME)) {
            troupe.awaitLineStartingWith("Troupe ready", STARTUP);
            aTotal = total(A, A_TOKEN);
            bTotal = total(B, B_TOKEN);
            System.out.println("[durable kill -9] after the restart: " + A + " " + aTotal + ", " + B + " " + bTotal);
            assertTrue(aTotal >= aAcked, A + " lost acknowledged adds: " + aTotal + " < acknowledged " + aAcked);
            assertTrue(bTotal >= bAcked, B + " lost acknowledged adds: " + bTotal + " < acknowledged " + bAcked);
            assertTrue(aTotal <= aSent, A + " holds more than its clients sent (" + aSent + " adds of 1): " + aTotal);
            assertTrue(bTotal <= bSent * B_STEP, B + " holds more than its clients sent (" + bSent + " adds of "
                    + B_STEP + "): " + bTotal);
            assertEquals(0, bTotal % B_STEP, B + " adds " + B_STEP + " at a time; " + bTotal + " holds adds of "
                    + A + " (or lost part of its own)");
            assertEquals(0, troupe.terminate(STOP), troupe::transcript);
        }

        try (TroupeProcess troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME)) {
            troupe.awaitLineStartingWith("Troupe ready", STARTUP);
            assertEquals(aTotal, total(A, A_TOKEN), A + "'s total after a clean stop and start");
            assertEquals(bTotal, total(B, B_TOKEN), B + "'s total after a clean stop and start");
            assertEquals(0, troupe.terminate(STOP), troupe::transcript);
        }
    }

    @Test
    void whatAClientWasToldWasSaidInAChatRoomSurvivesKillDashNine() throws Exception {
        try (TroupeProcess troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME)) {
            troupe.awaitLineStartingWith("Troupe ready", STARTUP);
            try (TroupeClient alice = connect(A, A_TOKEN)) {
                assertEquals("ok", request(alice, "chat.join", "lobby"));
                assertEquals("ok", request(alice, "chat.say", "lobby\nbefore the crash"));
                assertEquals("ok", request(alice, "chat.say", "lobby\nstill before"));
            }
            killServerJvm();
            assertEquals(KILLED, troupe.awaitExit(STOP), troupe::transcript);
        }
        try (TroupeProcess troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME)) {
            troupe.awaitLineStartingWith("Troupe ready", STARTUP);
            try (TroupeClient reader = connect(A, A_TOKEN); TroupeClient other = connect(B, B_TOKEN)) {
                assertEquals("lobby\nbefore the crash\u001elobby\nstill before",
                        request(reader, "chat.history", "lobby"));
                assertEquals("", request(other, "chat.history", "lobby"), "another tenant's chat has no history");
            }
            assertEquals(0, troupe.terminate(STOP), troupe::transcript);
        }
    }

    @Test
    void aHotSwapUnderLoadLosesNoRequestAndLeavesTheStoreHoldingTheLiveTotal() throws Exception {
        long live;
        try (TroupeProcess troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME)) {
            troupe.awaitLineStartingWith("Troupe ready", STARTUP);
            try (TroupeClient probe = connect(A, A_TOKEN)) {
                assertEquals("1.0.0", request(probe, "counter.version"));
                CounterLoad load = CounterLoad.start(() -> connect(A, A_TOKEN), 1);
                try (load) {
                    await(MIN_ACKS + " adds acknowledged before the swap (or a request failed)", PROGRESS,
                            () -> load.acks() >= MIN_ACKS || load.failures() > 0, load::toString);
                    assertEquals(0, load.failures(), () -> "requests failed before the swap: " + load);
                    deployCounter2();
                    assertEquals("2.0.0", request(probe, "counter.version"), "the swap is done once deploy returns");
                    long atSwap = load.acks();
                    await(MIN_ACKS + " adds acknowledged by 2.0.0 (or a request failed)", PROGRESS,
                            () -> load.acks() >= atSwap + MIN_ACKS || load.failures() > 0, load::toString);
                    load.stop();
                }
                System.out.println("[durable hot swap] " + load);
                assertEquals(0, load.failures(), () -> "requests failed across the swap: " + load);
                live = Long.parseLong(request(probe, "counter.get"));
                assertEquals(load.acks(), live, "every add of " + A + " counted once across the swap");
                assertEquals(load.acks(), load.highestAcked(), "the highest total a client saw is the count");
            }
            assertStoredOnce(troupe, A);

            killServerJvm();
            assertEquals(KILLED, troupe.awaitExit(STOP), troupe::transcript);
        }

        try (TroupeProcess troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME)) {
            troupe.awaitLineStartingWith("Troupe ready", STARTUP);
            try (TroupeClient probe = connect(A, A_TOKEN)) {
                assertEquals(Long.toString(live), request(probe, "counter.get"),
                        "the store held the live total when the server was killed");
                assertEquals("2.0.0", request(probe, "counter.version"));
            }
            assertEquals(0, troupe.terminate(STOP), troupe::transcript);
        }
    }

    /** {@code troupe:state-list TENANT} shows one stored actor, the counter's, under the tenant. */
    private static void assertStoredOnce(TroupeProcess troupe, String tenant) throws IOException, InterruptedException {
        troupe.send("troupe:state-list " + tenant);
        troupe.awaitLineStartingWith("TENANT", REPLY);
        String row = troupe.awaitLineStartingWith("", REPLY);
        String summary = troupe.awaitLineStartingWith("", REPLY);
        String[] columns = row.trim().split("\\s+");
        assertTrue(columns.length == 5 && columns[0].equals(tenant) && columns[1].equals("handler:counter.add"),
                "the counter's snapshot under tenant " + tenant + ": " + row + troupe.transcript());
        assertTrue(summary.startsWith("1 stored actor, "), "one snapshot for the tenant after the swap, not one per "
                + "revision: " + row + "\n" + summary + troupe.transcript());
    }

    /**
     * Deploys {@code samples/counter-2.0.0.jar} over {@code deploy/counter.jar} with {@code bin/troupe-client
     * deploy}, which returns once the host runs it (or refused it).
     */
    private void deployCounter2() throws IOException, InterruptedException {
        Path jar = Files.createDirectories(dir.resolve("v2")).resolve("counter.jar");
        Files.copy(home.resolve("samples/counter-2.0.0.jar"), jar);
        String said = TestInstallation.clientDeploy(home, dir, JAVA_HOME, jar, DEPLOY);
        assertTrue(said.contains("io.troupe.sample.counter 2.0.0") && said.contains("running"), said);
    }

    /** SIGKILLs the installation's JVM ({@link TestInstallation#jvm}) and waits until it is gone. */
    private void killServerJvm() throws InterruptedException {
        TestInstallation.kill(TestInstallation.jvm(home), STOP);
    }

    /** The tenant's counter.get, on a connection of its own. */
    private long total(String tenant, String token) throws Exception {
        try (TroupeClient client = connect(tenant, token)) {
            return Long.parseLong(request(client, "counter.get"));
        }
    }

    /**
     * A connected client of {@code tenant}; HELLO is retried (every 100 ms, for {@link #STARTUP}) until the
     * server has loaded the tenant's file. Requests time out after {@link #REPLY}; no reconnection.
     */
    private TroupeClient connect(String tenant, String token) throws Exception {
        return TestTenants.connectedClient(port, tenant, token, REPLY, STARTUP);
    }

    private static String request(TroupeClient client, String name) throws Exception {
        byte[] reply = client.request(name, new byte[0]).get(REPLY.toSeconds(), TimeUnit.SECONDS);
        return new String(reply, UTF_8);
    }

    private static String request(TroupeClient client, String name, String text) throws Exception {
        byte[] reply = client.request(name, text.getBytes(UTF_8)).get(REPLY.toSeconds(), TimeUnit.SECONDS);
        return new String(reply, UTF_8);
    }

    /**
     * Returns once {@code condition} holds (checked every 5 ms); fails with {@code what} and the last
     * {@code state} after {@code timeout}.
     */
    private static void await(String what, Duration timeout, BooleanSupplier condition, Supplier<String> state) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not within " + timeout + ": " + what + "; last seen " + state.get());
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }

    /** Opens a connected client. <b>Threading:</b> called on the test thread. */
    @FunctionalInterface
    private interface ClientSource {
        TroupeClient connect() throws Exception;
    }

    /**
     * One tenant's load: {@link #CONNECTIONS} clients, each with a sender thread keeping up to
     * {@link #WINDOW} {@code counter.add STEP} requests in flight. It records the requests sent, the
     * replies, the highest total a reply carried and the failures; a connection stops sending at its first
     * failure (after a kill, every request fails).
     *
     * <p><b>Threading:</b> {@link #start}, {@link #stop} and {@link #close} from the test thread; the
     * counters are atomics, read from any thread.
     */
    private static final class CounterLoad implements AutoCloseable {

        private static final Duration JOIN = REPLY.plusSeconds(10);

        private final List<Sender> senders = new ArrayList<>();
        private final byte[] step;
        private final AtomicLong sent = new AtomicLong();
        private final AtomicLong acks = new AtomicLong();
        private final AtomicLong highest = new AtomicLong();
        private final AtomicLong failures = new AtomicLong();
        private volatile String firstFailure = "none";
        private volatile boolean running = true;

        private CounterLoad(long step) {
            this.step = Long.toString(step).getBytes(UTF_8);
        }

        /** Opens {@link #CONNECTIONS} clients from {@code source} and starts sending on each. */
        static CounterLoad start(ClientSource source, long step) throws Exception {
            CounterLoad load = new CounterLoad(step);
            try {
                for (int i = 0; i < CONNECTIONS; i++) {
                    load.senders.add(load.new Sender(source.connect(), i));
                }
            } catch (Exception | AssertionError e) {
                load.close();
                throw e;
            }
            load.senders.forEach(sender -> sender.thread.start());
            return load;
        }

        long sent() {
            return sent.get();
        }

        long acks() {
            return acks.get();
        }

        long highestAcked() {
            return highest.get();
        }

        long failures() {
            return failures.get();
        }

        /** Stops sending and waits until every request sent has its answer (or failure); keeps the clients open. */
        void stop() throws InterruptedException {
            running = false;
            for (Sender sender : senders) {
                sender.thread.join(JOIN.toMillis());
                if (sender.thread.isAlive()) {
                    throw new AssertionError(sender.thread.getName() + " did not finish within " + JOIN);
                }
                if (sender.stuck != null) {
                    throw new AssertionError(sender.stuck);
                }
            }
        }

        /** Stops sending, closes the clients (which fails what is still in flight) and waits for the senders. */
        @Override
        public void close() throws InterruptedException {
            running = false;
            for (Sender sender : senders) {
                sender.client.close();
            }
            for (Sender sender : senders) {
                if (sender.thread.isAlive()) {
                    sender.thread.join(JOIN.toMillis());
                }
            }
        }

        @Override
        public String toString() {
            return "sent " + sent + ", acknowledged " + acks + " (highest total " + highest + "), failed " + failures
                    + " (first: " + firstFailure + ")";
        }

        /**
         * A client and its sender thread, with its window of requests in flight. <b>Threading:</b> the
         * sender thread sends; the client's loop thread runs {@link #answered} and releases the window.
         */
        private final class Sender implements Runnable {

            final Thread thread;
            final TroupeClient client;
            private final Semaphore window = new Semaphore(WINDOW);
            private volatile boolean broken;
            volatile String stuck;

            Sender(TroupeClient client, int index) {
                this.client = client;
                this.thread = new Thread(this, "durable-load-" + index);
                this.thread.setDaemon(true);
            }

            @Override
            public void run() {
                try {
                    while (running && !broken) {
                        if (!window.tryAcquire(JOIN.toMillis(), TimeUnit.MILLISECONDS)) {
                            stuck = thread.getName() + ": no answer freed the window within " + JOIN;
                            return;
                        }
                        sent.incrementAndGet();
                        client.request("counter.add", step).whenComplete(this::answered);
                    }
                    if (!window.tryAcquire(WINDOW, JOIN.toMillis(), TimeUnit.MILLISECONDS)) {
                        stuck = thread.getName() + ": requests unanswered " + JOIN + " after the load stopped";
                    }
                } catch (InterruptedException e) {
                    stuck = thread.getName() + " interrupted";
                    Thread.currentThread().interrupt();
                }
            }

            private void answered(byte[] reply, Throwable error) {
                if (error == null) {
                    long total = Long.parseLong(new String(reply, UTF_8));
                    highest.accumulateAndGet(total, Math::max);
                    acks.incrementAndGet();
                } else {
                    broken = true;
                    if (failures.getAndIncrement() == 0) {
                        firstFailure = describe(error);
                    }
                }
                window.release();
            }
        }

        private static String describe(Throwable error) {
            Throwable cause = error instanceof CompletionException && error.getCause() != null
                    ? error.getCause() : error;
            if (cause instanceof TroupeClientException failure) {
                return "ERROR " + failure.code() + ": " + failure.detail();
            }
            return cause.toString();
        }
    }

    /**
     * Prints the last {@link #LOG_TAIL_LINES} lines of {@code log/troupe.log} when the test method failed:
     * right after it, before its temporary folder goes.
     *
     * <p><b>Threading:</b> JUnit's thread, after the test method.
     */
    private static final class LogTailOnFailure implements AfterTestExecutionCallback {

        @Override
        public void afterTestExecution(ExtensionContext context) {
            if (context.getExecutionException().isEmpty()) {
                return;
            }
            context.getTestInstance().map(DurableStateIT.class::cast).map(test -> test.home).ifPresent(home -> {
                Path log = home.resolve("log/troupe.log");
                try {
                    List<String> lines = Files.exists(log) ? Files.readAllLines(log) : List.of("(no " + log + ")");
                    System.out.println("--- the last " + LOG_TAIL_LINES + " lines of " + log + " ---\n" + String.join(
                            "\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size())));
                } catch (IOException | RuntimeException e) {
                    System.out.println("--- " + log + " unreadable: " + e);
                }
            });
        }
    }
}
