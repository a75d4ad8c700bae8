package io.troupe.server.session;

import static io.troupe.server.session.WrittenFrames.request;
import static io.troupe.server.session.WrittenFrames.single;
import static io.troupe.server.session.WrittenFrames.types;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.troupe.api.cluster.HandoverReport;
import io.troupe.api.cluster.Placement;
import io.troupe.api.cluster.TenantPlacement;
import io.troupe.api.net.ConnectionOptions;
import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameType;
import io.troupe.protocol.Redirect;
import io.troupe.server.auth.Authenticator;
import io.troupe.server.auth.LoginGuard;
import io.troupe.server.cluster.TenantMoves;
import io.troupe.server.cluster.TenantPlacements;
import io.troupe.server.credential.TokenHash;
import io.troupe.server.tenant.TenantConfig;
import io.troupe.server.tenant.TenantDirectory;
import io.troupe.testsupport.StubRuntime;
import io.troupe.testsupport.StubRuntime.StubActor;

/**
 * A {@link Session} of a cluster node, on an in-memory connection: its HELLO placed by the cluster (here,
 * elsewhere, nowhere, or after the node joins), and its tenant handed over to another node (paused,
 * drained, redirected) through {@link TenantMoves}.
 */
class SessionPlacementTest {

    private static final String TENANT = "acme";
    private static final String TOKEN = "s3cret-s3cret-s3cret-s3cret-s3cret";
    private static final String TOKEN_HASH =
            TokenHash.of(TOKEN, TokenHash.MIN_ITERATIONS, new SecureRandom()).format();
    private static final SessionLimits LIMITS = new SessionLimits(65_536, Duration.ofSeconds(60),
            Duration.ofSeconds(5), Duration.ofMinutes(5));

    private final StubRuntime runtime = new StubRuntime();
    private final ManualConnection connection = new ManualConnection();
    private final ScriptedPlacement cluster = new ScriptedPlacement();
    private TenantDirectory tenants;
    private Sessions sessions;
    private TenantMoves moves;
    private TenantPlacements placements;
    private StubActor echo;

    @BeforeEach
    void clusteredServer() throws Exception {
        tenants = new TenantDirectory(null, connection::nanoTime);
        tenants.serve(TenantConfig.from(null, Map.of("tenant", TENANT, "tokenHash", TOKEN_HASH)));
        sessions = new Sessions(runtime, tenants, Authenticator.with(tenants, new LoginGuard(connection::nanoTime),
                Runnable::run, 1), LIMITS, connection::nanoTime);
        moves = new TenantMoves(tenants, runtime, connection::nanoTime);
        placements = new TenantPlacements(true, moves, Duration.ofSeconds(30));
        sessions.placements(placements);
        echo = runtime.addHandler("echo");
        connection.open(sessions.handlers(ConnectionOptions.DEFAULTS).create(connection));
    }

    @Test
    void aHelloWaitsUntilTheNodeHasJoinedThenIsWelcomed() {
        connection.receive(Frame.hello(5, TENANT, TOKEN));
        connection.runTasks();
        assertEquals(List.of(), connection.takeWritten(), "no cluster yet: the HELLO waits");
        assertEquals(1, placements.waiting());

        cluster.answer = Placement.local();
        placements.placementArrived(cluster);
        connection.runTasks();
        Frame welcome = single(connection.takeWritten());
        assertEquals(FrameType.WELCOME, welcome.type());
        assertEquals(5, welcome.corrId());
        assertEquals(List.of(TENANT), cluster.claims);
    }

    @Test
    void theNodeKnowsTheTenantsWhoseConfigurationItHasLoaded() throws Exception {
        assertEquals(Set.of(TENANT), moves.knownTenants());
        tenants.serve(TenantConfig.from(null, Map.of("tenant", "globex", "tokenHash", TOKEN_HASH)));
        assertEquals(List.of("acme", "globex"), List.copyOf(moves.knownTenants()), "sorted");
        assertEquals(Set.of(), moves.activeTenants(), "known is not active: no session, no actor");
    }

    @Test
    void aTenantServedElsewhereGetsTenantMovedWithItsAddressAndTheConnectionCloses() {
        cluster.answer = Placement.elsewhere("10.0.0.7:7878", "owned by node 3");
        placements.placementArrived(cluster);

        connection.receive(Frame.hello(9, TENANT, TOKEN));
        connection.runTasks();
        Frame moved = single(connection.takeWritten());
        assertEquals(FrameType.ERROR, moved.type());
        assertEquals("tenant.moved", moved.name());
        assertEquals(9, moved.corrId());
        assertEquals("10.0.0.7:7878", moved.text());
        assertFalse(connection.isOpen());
        assertEquals(0, tenants.find(TENANT).orElseThrow().connections(), "nothing was admitted");
        assertTrue(runtime.spawned.isEmpty(), "no session actor");
    }

    @Test
    void aTenantNobodyMayServeNowGetsServerBusy() {
        cluster.answer = Placement.unavailable("the cluster has 1 of its 2 minimum members");
        placements.placementArrived(cluster);

        connection.receive(Frame.hello(3, TENANT, TOKEN));
        connection.runTasks();
        Frame busy = single(connection.takeWritten());
        assertEquals("server.busy", busy.name());
        assertTrue(busy.text().contains("minimum members"), busy.text());
        assertFalse(connection.isOpen());
    }

    @Test
    void aHandoverPausesTheSessionAnswersWhatItAcceptedThenRedirectsIt() throws Exception {
        welcomed();
        connection.receive(request(1, "accepted"));
        assertEquals(1, echo.asked.size());

        CompletableFuture<HandoverReport> released = moves.release(TENANT, Duration.ofSeconds(30))
                .toCompletableFuture();
        connection.runTasks();
        assertTrue(connection.isSuspended(), "the session reads nothing more");
        connection.receive(request(2, "sent during the pause"));
        assertEquals(1, echo.asked.size(), "a frame sent during the pause stays unread");
        assertFalse(released.isDone(), "a request accepted before the pause is still unanswered");
        assertEquals(List.of(), runtime.tenantsStopped);

        echo.asked.get(0).reply().complete("done".getBytes(UTF_8));
        connection.runTasks();
        assertEquals(List.of(FrameType.REPLY), types(connection.takeWritten()), "answered, and no BYE yet");
        HandoverReport report = released.get(5, TimeUnit.SECONDS);
        assertTrue(report.complete(), report::toString);
        assertEquals(1, report.sessions());
        assertEquals(1, report.requests());
        assertEquals(List.of(TENANT), runtime.tenantsAwaitedIdle, "what its sessions sent is processed first");
        assertEquals(List.of(TENANT), runtime.tenantsHandedOver, "its actors stop for the next node once it has"
                + " drained");
        assertTrue(runtime.policies.containsKey(TENANT), "its policy is set again for a return");
        assertTrue(connection.isOpen());

        moves.redirect(TENANT, "10.0.0.8:7878");
        connection.runTasks();
        Frame bye = single(connection.takeWritten());
        assertEquals(FrameType.BYE, bye.type());
        assertEquals("tenant.moved 10.0.0.8:7878", bye.text());
        assertEquals("10.0.0.8:7878", Redirect.target(bye).orElseThrow());
        assertEquals(0, connection.unconsumedBytes(), "what came during the pause is dropped unread, not left to"
                + " reset the connection");
        connection.receive(request(3, "sent before the client read the BYE"));
        assertEquals(List.of(), connection.takeWritten());
        assertEquals(1, echo.asked.size(), "the requests sent during the pause and after never ran here");
        assertTrue(connection.isOpen(), "open until the client closes, or the linger ends");
        connection.endOfInput();
        connection.runTasks();
        assertFalse(connection.isOpen());
    }

    @Test
    void theActorsStopOnlyOnceTheyHaveProcessedWhatTheSessionsSentThem() throws Exception {
        welcomed();
        CompletableFuture<Boolean> idle = new CompletableFuture<>();
        runtime.tenantIdle = idle;
        CompletableFuture<HandoverReport> released = moves.release(TENANT, Duration.ofSeconds(30))
                .toCompletableFuture();
        connection.runTasks();
        assertEquals(List.of(TENANT), runtime.tenantsAwaitedIdle, "the session drained: the actors are waited for");
        assertEquals(List.of(), runtime.tenantsHandedOver, "not stopped while they still have messages");
        assertFalse(released.isDone());

        idle.complete(true);
        HandoverReport report = released.get(5, TimeUnit.SECONDS);
        assertTrue(report.complete(), report::toString);
        assertEquals(List.of(TENANT), runtime.tenantsHandedOver);
    }

    @Test
    void actorsStillBusyWhenPatienceRunsOutAreStoppedAndTheReportSaysSo() throws Exception {
        welcomed();
        runtime.tenantIdle = CompletableFuture.completedFuture(false);
        CompletableFuture<HandoverReport> released = moves.release(TENANT, Duration.ofSeconds(30))
                .toCompletableFuture();
        connection.runTasks();
        HandoverReport report = released.get(5, TimeUnit.SECONDS);
        assertFalse(report.complete(), report::toString);
        assertTrue(report.detail().contains("still had messages"), report.detail());
        assertEquals(List.of(TENANT), runtime.tenantsHandedOver);
    }

    @Test
    void aHelloDuringAHandoverWaitsForTheRedirectAndIsSentThere() throws Exception {
        cluster.answer = Placement.local();
        placements.placementArrived(cluster);
        moves.release(TENANT, Duration.ofSeconds(30)).toCompletableFuture().get(5, TimeUnit.SECONDS);

        connection.receive(Frame.hello(4, TENANT, TOKEN));
        connection.runTasks();
        assertEquals(List.of(), connection.takeWritten(), "the HELLO waits for the handover to end");
        assertEquals(List.of(), cluster.claims, "the cluster is not asked while the tenant moves");

        moves.redirect(TENANT, "10.0.0.9:7878");
        connection.runTasks();
        Frame moved = single(connection.takeWritten());
        assertEquals("tenant.moved", moved.name());
        assertEquals("10.0.0.9:7878", moved.text());

        ManualConnection second = new ManualConnection();
        second.open(sessions.handlers(ConnectionOptions.DEFAULTS).create(second));
        second.receive(Frame.hello(6, TENANT, TOKEN));
        second.runTasks();
        assertEquals(FrameType.WELCOME, single(second.takeWritten()).type(), "after the move, the cluster decides again");
    }

    @Test
    void aSessionWhoseTenantBeganToMoveBeforeItWasAdmittedAsksAgain() throws Exception {
        cluster.answer = Placement.local();
        cluster.deferred = true;
        placements.placementArrived(cluster);
        connection.receive(Frame.hello(8, TENANT, TOKEN));
        connection.runTasks();
        assertEquals(1, cluster.pending.size());

        moves.release(TENANT, Duration.ofSeconds(30)).toCompletableFuture().get(5, TimeUnit.SECONDS);
        cluster.pending.remove(0).complete(Placement.local()); // answered before the handover began
        connection.runTasks();
        assertEquals(List.of(), connection.takeWritten(), "not welcomed on a stale answer: it waits for the move");

        moves.redirect(TENANT, "10.0.0.5:7878");
        connection.runTasks();
        assertEquals("10.0.0.5:7878", single(connection.takeWritten()).text());
        assertEquals(0, tenants.find(TENANT).orElseThrow().connections());
    }

    @Test
    void aHelloWaitsForTheClusterOrAnEndlessHandoverOnlyBoundedlyThenGetsServerBusy() throws Exception {
        placements = new TenantPlacements(true, moves, Duration.ofMillis(50));
        sessions.placements(placements);
        connection.receive(Frame.hello(2, TENANT, TOKEN));
        connection.runTasks();
        Frame busy = awaitFrame(connection); // not joined: the credentials, then the placement, wait in vain
        assertEquals("server.busy", busy.name());
        assertTrue(busy.text().contains("has not joined its cluster"), busy.text());

        placements.placementArrived(cluster);
        moves.release(TENANT, Duration.ofSeconds(30)).toCompletableFuture().get(5, TimeUnit.SECONDS);
        ManualConnection second = new ManualConnection();
        second.open(sessions.handlers(ConnectionOptions.DEFAULTS).create(second));
        second.receive(Frame.hello(3, TENANT, TOKEN));
        second.runTasks();
        Frame stuck = awaitFrame(second); // the cluster never redirects this handover
        assertEquals("server.busy", stuck.name());
        assertTrue(stuck.text().contains("still being handed over"), stuck.text());
        moves.redirect(TENANT, "10.0.0.2:7878"); // late: the HELLO was answered once, and only once
        second.runTasks();
        assertEquals(List.of(), second.takeWritten());
    }

    /**
     * Runs the connection's tasks as timers of other threads queue them, until it has written one frame:
     * at most 5 s.
     */
    private static Frame awaitFrame(ManualConnection target) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (target.written().isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("nothing was written within 5 s");
            }
            if (target.queuedTasks() > 0) {
                target.runTasks();
            } else {
                Thread.onSpinWait();
            }
        }
        return single(target.takeWritten());
    }

    @Test
    void aNodeStillJoiningChecksNoCredentialsUntilItHasJoined() {
        connection.receive(Frame.hello(5, "not-yet-known", TOKEN));
        connection.runTasks();
        assertEquals(List.of(), connection.takeWritten(), "a tenant the node may not know yet is not refused");
        tenants.serve(config("not-yet-known")); // its file arrives from the cluster

        cluster.answer = Placement.local();
        placements.placementArrived(cluster);
        connection.runTasks();
        assertEquals(FrameType.WELCOME, single(connection.takeWritten()).type());
    }

    private static TenantConfig config(String tenant) {
        try {
            return TenantConfig.from(null, Map.of("tenant", tenant, "tokenHash", TOKEN_HASH));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private void welcomed() {
        cluster.answer = Placement.local();
        placements.placementArrived(cluster);
        connection.receive(Frame.hello(1, TENANT, TOKEN));
        connection.runTasks();
        assertEquals(FrameType.WELCOME, single(connection.takeWritten()).type());
    }

    /** The cluster's answer, as the test sets it; deferred answers complete when the test says. */
    private static final class ScriptedPlacement implements TenantPlacement {
        final List<String> claims = new ArrayList<>();
        final List<CompletableFuture<Placement>> pending = new ArrayList<>();
        Placement answer;
        boolean deferred;

        @Override
        public CompletionStage<Placement> claim(String tenant) {
            claims.add(tenant);
            if (deferred) {
                CompletableFuture<Placement> later = new CompletableFuture<>();
                pending.add(later);
                return later;
            }
            return CompletableFuture.completedFuture(answer);
        }

        @Override
        public String localNode() {
            return "node-1";
        }
    }
}
