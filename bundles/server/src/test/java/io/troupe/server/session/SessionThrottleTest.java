package io.troupe.server.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.troupe.api.TenantPolicy;
import io.troupe.api.net.ConnectionOptions;
import io.troupe.protocol.ErrorCode;
import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameEncoder;
import io.troupe.protocol.FrameType;
import io.troupe.server.tenant.PendingOutput;
import io.troupe.server.tenant.Tenant;
import io.troupe.server.tenant.TenantConfig;
import io.troupe.server.auth.Authenticator;
import io.troupe.server.auth.LoginGuard;
import io.troupe.server.credential.TokenHash;
import io.troupe.server.tenant.TenantDirectory;
import io.troupe.server.tenant.ThrottleLimit;
import io.troupe.testsupport.StubRuntime;
import io.troupe.testsupport.StubRuntime.StubActor;

/**
 * A session under its tenant's limits ({@link SessionThrottle}), on an in-memory connection with a
 * manual clock: over a rate or at the queue limit it holds the frame, stops reading, and goes on when
 * the limit allows, in order and without losing a frame; the throttled time is counted by limit.
 *
 * <p><b>Threading:</b> JUnit's thread is the connection's loop.
 */
class SessionThrottleTest {

    private static final String TENANT = "acme";
    private static final String TOKEN = "s3cret-s3cret-s3cret-s3cret-s3cret";
    /** Fewer iterations than a real hash: the tests verify it often. */
    private static final String TOKEN_HASH =
            TokenHash.of(TOKEN, TokenHash.MIN_ITERATIONS, new SecureRandom()).format();
    private static final SessionLimits LIMITS = new SessionLimits(65_536, Duration.ZERO, Duration.ofSeconds(5),
            Duration.ofMinutes(5));
    /** 4 + 22 + 4 ("echo") + 70: a request of exactly 100 bytes. */
    private static final int CONTENT = 70;

    private final StubRuntime runtime = new StubRuntime();
    private final ManualConnection connection = new ManualConnection();
    private Tenant tenant;
    private Sessions sessions;
    private Session session;
    private StubActor echo;

    @Test
    void overItsByteRateTheSessionStopsReadingAndReadsOnAsTheBucketRefillsLosingNothing() throws Exception {
        open(Map.of("maxBytesPerSecond", "1000"));
        connection.receive(requests(1, 30));
        assertEquals(10, echo.asked.size(), "one second's worth: ten frames of 100 bytes");
        assertTrue(connection.isSuspended());
        assertTrue(connection.unconsumedBytes() > 0, "the frames behind wait in the input buffer, then in TCP");
        assertEquals(1, tenant.throttling().limit(ThrottleLimit.BYTES_PER_SECOND).held());

        connection.advance(Duration.ofMillis(1000));
        assertEquals(20, echo.asked.size(), "then 1000 bytes a second");
        connection.advance(Duration.ofMillis(1000));
        assertEquals(30, echo.asked.size());
        assertEquals(IntStream.rangeClosed(1, 30).boxed().toList(), corrIds());
        assertFalse(connection.isSuspended());
        assertEquals(0, connection.unconsumedBytes());
        long throttled = tenant.throttling().limit(ThrottleLimit.BYTES_PER_SECOND).nanos(connection.nanoTime());
        assertTrue(throttled >= 1_800_000_000L && throttled <= 2_000_000_000L, "throttled " + throttled);
        assertEquals(0, tenant.throttling().limit(ThrottleLimit.BYTES_PER_SECOND).held());
        assertEquals(3000, tenant.metrics().bytesReceived());
    }

    @Test
    void overItsRequestRateTheSessionIsPacedNotRefusedAndPingsWaitTheirTurn() throws Exception {
        open(Map.of("maxRequestsPerSecond", "5"));
        List<Frame> frames = new ArrayList<>();
        for (int i = 1; i <= 8; i++) {
            frames.add(request(i));
        }
        frames.add(Frame.ping(99, new byte[0]));
        connection.receive(frames.toArray(Frame[]::new));
        assertEquals(5, echo.asked.size());
        assertTrue(connection.takeWritten().isEmpty(), "nothing refused: no quota.rate");

        connection.advance(Duration.ofMillis(200));
        assertEquals(6, echo.asked.size(), "one more each fifth of a second");
        connection.advance(Duration.ofMillis(400));
        assertEquals(8, echo.asked.size());
        assertEquals(List.of(FrameType.PONG), connection.takeWritten().stream().map(Frame::type).toList(),
                "a PING is no request: it passes as soon as the requests before it did");
        assertTrue(tenant.throttling().limit(ThrottleLimit.REQUESTS_PER_SECOND).nanos(connection.nanoTime()) > 0);
        assertFalse(connection.isSuspended());
    }

    @Test
    void atTheTenantsQueueLimitTheFrameWaitsForTheRuntimesDrain() throws Exception {
        open(Map.of("maxQueuedMessages", "100"));
        List<Runnable> drains = new ArrayList<>();
        runtime.tenantsFull.put(TENANT, drains);
        connection.receive(request(1), request(2));
        assertTrue(echo.asked.isEmpty());
        assertTrue(connection.isSuspended());
        assertEquals(1, drains.size());

        runtime.tenantsFull.remove(TENANT);
        drains.get(0).run(); // on a runtime thread: it only queues a task for the loop
        assertTrue(echo.asked.isEmpty());
        connection.runTasks();
        assertEquals(List.of(1, 2), corrIds());
        assertFalse(connection.isSuspended());
        assertTrue(tenant.throttling().limit(ThrottleLimit.QUEUED_MESSAGES).nanos(connection.nanoTime()) >= 0);
        assertEquals(0, tenant.throttling().limit(ThrottleLimit.QUEUED_MESSAGES).held());
    }

    @Test
    void aRaisedQueueLimitReleasesTheHeldFrameWithinTheRecheck() throws Exception {
        open(Map.of("maxQueuedMessages", "100"));
        runtime.tenantsFull.put(TENANT, new ArrayList<>());
        connection.receive(request(1));
        assertTrue(echo.asked.isEmpty());

        runtime.tenantsFull.remove(TENANT); // the runtime's drain callback never comes: the limit was raised
        runtime.policies.put(TENANT, TenantPolicy.defaults().withMaxQueuedMessages(1000));
        connection.advance(SessionThrottle.RECHECK);
        assertEquals(List.of(1), corrIds());
    }

    @Test
    void aDrainThatArrivesAfterTheFrameWasAnsweredOtherwiseIsIgnored() throws Exception {
        open(Map.of("maxQueuedMessages", "100"));
        List<Runnable> drains = new ArrayList<>();
        runtime.tenantsFull.put(TENANT, drains);
        connection.receive(request(1));
        session.beginShutdown();
        connection.runTasks();
        Frame refused = connection.takeWritten().get(0);
        assertEquals(ErrorCode.SERVER_SHUTDOWN.code(), refused.name());
        assertEquals(1, refused.corrId());
        assertEquals(0, tenant.throttling().limit(ThrottleLimit.QUEUED_MESSAGES).held());

        drains.get(0).run();
        connection.runTasks();
        assertTrue(echo.asked.isEmpty(), "the stale drain routes nothing");
    }

    @Test
    void aConnectionThatClosesWhileThrottledStopsCountingThrottledTime() throws Exception {
        open(Map.of("maxRequestsPerSecond", "1"));
        connection.receive(request(1), request(2));
        assertEquals(1, tenant.throttling().limit(ThrottleLimit.REQUESTS_PER_SECOND).held());
        connection.close();
        connection.runTasks();
        assertEquals(0, tenant.throttling().limit(ThrottleLimit.REQUESTS_PER_SECOND).held());
        long after = tenant.throttling().limit(ThrottleLimit.REQUESTS_PER_SECOND).nanos(connection.nanoTime());
        connection.advance(Duration.ofSeconds(5));
        assertEquals(after, tenant.throttling().limit(ThrottleLimit.REQUESTS_PER_SECOND).nanos(connection.nanoTime()));
        assertEquals(1, echo.asked.size());
    }

    @Test
    void aFrameAboveTheTenantsLowerFrameLimitIsRefusedFrameTooLargeAndCloses() throws Exception {
        open(Map.of("maxFrameBytes", "2048"));
        connection.receive(Frame.request(1, "echo", new byte[3000]));
        connection.runTasks();
        Frame error = connection.takeWritten().get(0);
        assertEquals(ErrorCode.FRAME_TOO_LARGE.code(), error.name());
        assertTrue(error.text().contains("2048"), error.text());
        assertFalse(connection.isOpen());
    }

    @Test
    void aRemovedTenantsSessionIsToldWhyInItsBye() throws Exception {
        open(Map.of());
        session.tenantRemoved(tenant, TenantDirectory.REMOVED_REASON); // as the directory does on removal
        connection.runTasks();
        Frame bye = connection.takeWritten().get(0);
        assertEquals(FrameType.BYE, bye.type());
        assertEquals("tenant removed", bye.text());
        assertFalse(connection.isOpen());
    }

    @Test
    void overItsPendingOutputBoundEveryConnectionOfTheTenantWaitsUntilTheTotalIsDownToHalf() throws Exception {
        open(Map.of("maxPendingOutputBytes", "1000"));
        ManualConnection other = new ManualConnection();
        openAnother(other);
        connection.pendingOutput(1500); // the client reads nothing: the PONG stays in the reactor's buffer
        connection.receive(Frame.ping(7, new byte[0]));
        assertEquals(1500, tenant.metrics().pendingOutput().bytes());

        other.receive(request(1), request(2));
        assertTrue(echo.asked.isEmpty(), "the other connection's output is empty, but the tenant's is over");
        assertTrue(other.isSuspended());
        assertEquals(1, tenant.throttling().limit(ThrottleLimit.PENDING_OUTPUT).held());
        connection.receive(request(3));
        assertTrue(echo.asked.isEmpty());

        connection.pendingOutput(600); // drained, but not to half the bound
        connection.advance(PendingOutput.RECOUNT); // the tenant's clock
        other.advance(PendingOutput.RECOUNT);
        assertTrue(echo.asked.isEmpty(), "600 > 500: still held");

        connection.pendingOutput(500);
        connection.advance(PendingOutput.RECOUNT);
        other.advance(PendingOutput.RECOUNT);
        assertEquals(List.of(3, 1, 2), corrIds());
        assertFalse(other.isSuspended());
        assertFalse(connection.isSuspended());
        assertEquals(0, tenant.throttling().limit(ThrottleLimit.PENDING_OUTPUT).held());
        assertTrue(tenant.throttling().limit(ThrottleLimit.PENDING_OUTPUT).nanos(connection.nanoTime())
                >= PendingOutput.RECOUNT.toNanos() * 2);
    }

    @Test
    void aConnectionsOwnDrainReleasesItsFrameWithoutWaitingForTheRecount() throws Exception {
        open(Map.of("maxPendingOutputBytes", "1000"));
        connection.pendingOutput(2000);
        connection.receive(Frame.ping(7, new byte[0]));
        connection.receive(request(1));
        assertTrue(echo.asked.isEmpty());

        connection.drainedTo(0); // the reactor's onWritable
        connection.receive(Frame.ping(8, new byte[0])); // nothing read while held: no effect
        connection.advance(PendingOutput.RECOUNT);
        assertEquals(List.of(1), corrIds());
        assertEquals(0, tenant.metrics().pendingOutput().bytes());
    }

    @Test
    void aClosedConnectionsPendingOutputLeavesTheTenantsTotal() throws Exception {
        open(Map.of("maxPendingOutputBytes", "1000"));
        connection.pendingOutput(5000);
        connection.receive(Frame.ping(7, new byte[0]));
        assertEquals(5000, tenant.metrics().pendingOutput().bytes());
        connection.receive(request(1));
        assertEquals(1, tenant.throttling().limit(ThrottleLimit.PENDING_OUTPUT).held());

        connection.close();
        connection.runTasks();
        assertEquals(0, tenant.metrics().pendingOutput().bytes());
        assertEquals(0, tenant.metrics().pendingOutput().connections());
        assertEquals(0, tenant.throttling().limit(ThrottleLimit.PENDING_OUTPUT).held());
    }

    @Test
    void withoutAPendingOutputBoundNothingIsHeldForOutput() throws Exception {
        open(Map.of("maxPendingOutputBytes", "0"));
        connection.pendingOutput(1L << 40);
        connection.receive(Frame.ping(7, new byte[0]));
        connection.receive(request(1));
        assertEquals(List.of(1), corrIds());
        assertFalse(connection.isSuspended());
    }

    /** A second session of the tenant, on {@code other}. */
    private void openAnother(ManualConnection other) {
        Session second = (Session) sessions.handlers(ConnectionOptions.DEFAULTS).create(other);
        other.open(second);
        other.receive(Frame.hello(1, TENANT, TOKEN));
        other.runTasks(); // the authenticator's outcome
        assertEquals(FrameType.WELCOME, other.takeWritten().get(0).type());
    }

    private void open(Map<String, String> limits) throws Exception {
        Map<String, Object> properties = new HashMap<>(limits);
        properties.put("tenant", TENANT);
        properties.put("tokenHash", TOKEN_HASH);
        TenantDirectory tenants = new TenantDirectory(null, connection::nanoTime);
        tenants.serve(TenantConfig.from(null, properties));
        tenant = tenants.find(TENANT).orElseThrow();
        sessions = new Sessions(runtime, tenants, Authenticator.with(tenants,
                new LoginGuard(connection::nanoTime), Runnable::run, 1), LIMITS, connection::nanoTime);
        echo = runtime.addHandler("echo");
        session = (Session) sessions.handlers(ConnectionOptions.DEFAULTS).create(connection);
        connection.open(session);
        connection.receive(Frame.hello(1, TENANT, TOKEN));
        connection.runTasks(); // the authenticator's outcome
        assertEquals(FrameType.WELCOME, connection.takeWritten().get(0).type());
    }

    /** The requests asked so far, by the number each carries in its content. */
    private List<Integer> corrIds() {
        return echo.asked.stream().map(ask -> Integer.parseInt(ask.message().text())).toList();
    }

    private static Frame[] requests(int first, int last) {
        return IntStream.rangeClosed(first, last).mapToObj(SessionThrottleTest::request).toArray(Frame[]::new);
    }

    private static Frame request(int corrId) {
        Frame frame = Frame.request(corrId, "echo",
                String.format("%0" + CONTENT + "d", corrId).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assert FrameEncoder.encodedSize(frame) == 100;
        return frame;
    }
}
