package io.troupe.server.session;

import static io.troupe.server.session.WrittenFrames.request;
import static io.troupe.server.session.WrittenFrames.single;
import static io.troupe.server.session.WrittenFrames.types;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.troupe.api.Failure;
import io.troupe.api.Message;
import io.troupe.api.TroupeException;
import io.troupe.api.monitor.RequestLatency;
import io.troupe.api.net.ConnectionOptions;
import io.troupe.protocol.ErrorCode;
import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameEncoder;
import io.troupe.protocol.FrameType;
import io.troupe.server.tenant.TenantConfig;
import io.troupe.server.auth.Authenticator;
import io.troupe.server.auth.LoginGuard;
import io.troupe.server.credential.TokenHash;
import io.troupe.server.tenant.TenantDirectory;
import io.troupe.server.tenant.TenantMetrics;
import io.troupe.testsupport.StubRuntime;
import io.troupe.testsupport.StubRuntime.StubActor;

/**
 * One {@link Session} on an in-memory connection with a stub runtime: its state machine, routing,
 * backpressure, draining and timers, deterministically (manual clock, tasks run when the test says).
 */
class SessionTest {

    private static final String TENANT = "acme";
    private static final String TOKEN = "s3cret-s3cret-s3cret-s3cret-s3cret";
    /** Fewer iterations than a real hash: the tests verify it often. */
    private static final String TOKEN_HASH =
            TokenHash.of(TOKEN, TokenHash.MIN_ITERATIONS, new SecureRandom()).format();
    private static final SessionLimits LIMITS = new SessionLimits(65_536, Duration.ofSeconds(60),
            Duration.ofSeconds(5), Duration.ofMinutes(5)); // requests outlive the idle timeout

    private final StubRuntime runtime = new StubRuntime();
    private final ManualConnection connection = new ManualConnection();
    private TenantDirectory tenants;
    private Sessions sessions;
    private Session session;
    private StubActor echo;

    @BeforeEach
    void openAConnection() throws Exception {
        tenants = new TenantDirectory(null, connection::nanoTime); // serve() never reads ConfigAdmin
        tenants.serve(TenantConfig.from(null,
                Map.of("tenant", TENANT, "tokenHash", TOKEN_HASH, "maxConnections", "1")));
        sessions = new Sessions(runtime, tenants, Authenticator.with(tenants, new LoginGuard(connection::nanoTime),
                Runnable::run, 1), LIMITS, connection::nanoTime); // verifies inline, answers through a task
        echo = runtime.addHandler("echo");
        session = (Session) sessions.handlers(ConnectionOptions.DEFAULTS).create(connection);
        connection.open(session);
    }

    @Test
    void helloWithTheRightTokenIsWelcomedAndTheFirstMessageSpawnsTheSessionActor() {
        connection.receive(Frame.hello(77, TENANT, TOKEN));
        connection.runTasks(); // the authenticator's outcome
        Frame welcome = single(connection.takeWritten());
        assertEquals(FrameType.WELCOME, welcome.type());
        assertEquals(77, welcome.corrId());
        assertEquals("42", welcome.text());
        assertEquals(1, sessions.size());
        assertEquals(1, tenants.find(TENANT).orElseThrow().connections());
        assertTrue(runtime.spawned.isEmpty(), "an idle session holds no actor");
        connection.receive(request(1, "a"), request(2, "b"));
        assertEquals(1, runtime.spawned.size(), "one actor for the session's messages");
        assertEquals("session-42", runtime.spawned.get(0).name());
    }

    @Test
    void requestsAreAskedInTheOrderReceivedWithTheSessionAsClientAndAnsweredOnceEach() {
        welcome();
        connection.receive(request(1, "a"), request(2, "b"), Frame.send(3, "echo", "c".getBytes(UTF_8)));
        assertEquals(List.of("a", "b"), echo.asked.stream().map(ask -> ask.message().text()).toList());
        assertEquals("c", ((Message) echo.told.get(0)).text());
        assertSame(runtime.spawned.get(0), echo.asked.get(0).message().client());
        assertEquals(null, echo.asked.get(0).timeout(), "asked with no runtime timer: the session keeps the deadline");

        echo.asked.get(1).reply().complete("second".getBytes(UTF_8));
        echo.asked.get(0).reply().completeExceptionally(new TroupeException("bad.request", "no"));
        echo.asked.get(0).reply().obtrudeValue("late"); // a second completion changes nothing on the wire
        assertEquals(List.of(), connection.written(), "answers are written by the loop");
        connection.runTasks();
        List<Frame> answers = connection.takeWritten();
        assertEquals(2, answers.size());
        assertEquals(FrameType.REPLY, answers.get(0).type());
        assertEquals(2, answers.get(0).corrId());
        assertEquals("bad.request", answers.get(1).name());
        assertEquals(1, answers.get(1).corrId());
        assertEquals(0, session.requestsInFlight());
    }

    @Test
    void aFullMailboxHoldsTheFrameBackAndStopsDecodingUntilItDrains() {
        welcome();
        echo.full = true;
        connection.receive(request(1, "held"), request(2, "unread"));
        assertTrue(echo.asked.isEmpty());
        assertTrue(connection.isSuspended());
        assertTrue(connection.unconsumedBytes() > 0, "the frame behind stays in the input buffer");

        echo.drain();
        connection.runTasks();
        assertEquals(List.of("held", "unread"), echo.asked.stream().map(ask -> ask.message().text()).toList());
        assertFalse(connection.isSuspended());
        assertEquals(0, connection.unconsumedBytes());
    }

    @Test
    void byeStopsReadingAndClosesOnceEveryRequestInFlightIsAnswered() {
        welcome();
        connection.receive(request(1, "a"), Frame.bye(), request(2, "after bye"));
        assertEquals(1, echo.asked.size(), "nothing after BYE is read");
        assertTrue(connection.written().isEmpty());
        connection.runTasks();
        assertTrue(connection.isOpen());

        echo.asked.get(0).reply().complete("done");
        connection.runTasks();
        assertEquals(List.of(FrameType.REPLY, FrameType.BYE), types(connection.written()));
        assertFalse(connection.isOpen());
        assertTrue(runtime.spawned.get(0).isStopped(), "the session actor stops with the connection");
        assertEquals(0, tenants.find(TENANT).orElseThrow().connections());
        assertEquals(0, sessions.size());
    }

    @Test
    void shutdownRefusesWhatItCannotRunAnswersWhatRunsThenSaysBye() {
        welcome();
        connection.receive(request(1, "running"));
        echo.full = true;
        connection.receive(request(2, "held back"), request(3, "unread"));

        sessionDo(Session::beginShutdown);
        List<Frame> refused = connection.takeWritten();
        assertEquals(List.of(2L, 3L), refused.stream().map(Frame::corrId).toList());
        assertTrue(refused.stream().allMatch(frame -> frame.name().equals(ErrorCode.SERVER_SHUTDOWN.code())));
        assertTrue(connection.isOpen());

        echo.asked.get(0).reply().complete("ran");
        connection.runTasks();
        assertEquals(List.of(FrameType.REPLY, FrameType.BYE), types(connection.takeWritten()));
        assertTrue(connection.isOpen(), "it reads on a little after its BYE");

        connection.receive(request(4, "on its way"));
        Frame late = single(connection.takeWritten());
        assertEquals(ErrorCode.SERVER_SHUTDOWN.code(), late.name());
        assertEquals(4, late.corrId());
        connection.advance(Session.SHUTDOWN_LINGER);
        assertFalse(connection.isOpen());
        assertTrue(connection.written().isEmpty(), "one BYE only");
    }

    @Test
    void afterItsShutdownByeTheSessionClosesAsSoonAsTheClientDoes() {
        welcome();
        sessionDo(Session::beginShutdown);
        assertEquals(List.of(FrameType.BYE), types(connection.takeWritten()));
        connection.endOfInput();
        connection.runTasks();
        assertFalse(connection.isOpen());
        assertTrue(connection.written().isEmpty());
    }

    @Test
    void aForcedShutdownAnswersServerShutdownAndALateReplyIsDropped() {
        welcome();
        connection.receive(request(1, "slow"));
        sessionDo(Session::beginShutdown);
        sessionDo(Session::forceShutdown);
        echo.asked.get(0).reply().complete("too late");
        connection.runTasks();
        List<Frame> frames = connection.written();
        assertEquals(List.of(FrameType.ERROR, FrameType.BYE), types(frames));
        assertEquals(ErrorCode.SERVER_SHUTDOWN.code(), frames.get(0).name());
    }

    @Test
    void anIdleSessionIsToldByeButOneWaitingForAnAnswerIsNot() {
        welcome();
        connection.receive(request(1, "slow"));
        connection.advance(Duration.ofSeconds(150));
        assertTrue(connection.written().isEmpty(), "waiting for the server is not idleness");

        echo.asked.get(0).reply().complete("finally");
        connection.advance(Duration.ofSeconds(59));
        assertEquals(List.of(FrameType.REPLY), types(connection.takeWritten()));
        connection.receive(Frame.ping(5, new byte[0]));
        connection.advance(Duration.ofSeconds(59));
        assertEquals(List.of(FrameType.PONG), types(connection.takeWritten()));
        connection.advance(Duration.ofSeconds(2));
        assertEquals(List.of(FrameType.BYE), types(connection.written()));
        assertFalse(connection.isOpen());
    }

    @Test
    void noHelloWithinTheAuthTimeoutIsAnsweredAuthRequiredAndClosed() {
        connection.advance(Duration.ofMillis(4_999));
        assertTrue(connection.isOpen());
        connection.advance(Duration.ofMillis(1));
        Frame error = single(connection.written());
        assertEquals(ErrorCode.AUTH_REQUIRED.code(), error.name());
        assertFalse(connection.isOpen());
    }

    @Test
    void framesPipelinedAfterHelloWaitUntilItIsVerifiedThenFollowTheWelcome() {
        connection.receive(Frame.hello(1, TENANT, TOKEN), request(2, "a"));
        assertEquals(List.of(), connection.written(), "nothing before the authenticator's outcome");
        assertEquals(List.of(), echo.asked, "and nothing decoded after the HELLO");
        assertTrue(connection.isSuspended());
        connection.runTasks();
        assertEquals(FrameType.WELCOME, single(connection.takeWritten()).type());
        assertEquals(List.of("a"), echo.asked.stream().map(ask -> ask.message().text()).toList());
    }

    @Test
    void aWrongTokenIsAnsweredAuthFailedAndCloses() {
        connection.receive(Frame.hello(5, TENANT, "w".repeat(32)));
        connection.runTasks();
        Frame refused = single(connection.written());
        assertEquals(ErrorCode.AUTH_FAILED.code(), refused.name());
        assertEquals(5, refused.corrId());
        assertEquals("unknown tenant, wrong token or wrong client certificate", refused.text());
        assertFalse(connection.isOpen());
        assertEquals(0, tenants.find(TENANT).orElseThrow().connections());
    }

    @Test
    void theEndOfInputWhileTheHelloIsVerifiedStillWelcomesThenEndsTheSession() {
        connection.receive(Frame.hello(1, TENANT, TOKEN));
        connection.endOfInput();
        assertTrue(connection.isOpen(), "not closed while verifying");
        connection.advance(Duration.ofMillis(1));
        assertEquals(List.of(FrameType.WELCOME, FrameType.BYE),
                connection.written().stream().map(Frame::type).toList());
        assertFalse(connection.isOpen());
    }

    @Test
    void theTenantsConnectionLimitIsCheckedAtHello() {
        welcome();
        ManualConnection second = new ManualConnection();
        second.open(sessions.handlers(ConnectionOptions.DEFAULTS).create(second));
        second.receive(Frame.hello(9, TENANT, TOKEN));
        second.runTasks();
        Frame refused = single(second.written());
        assertEquals(ErrorCode.QUOTA_CONNECTIONS.code(), refused.name());
        assertEquals(9, refused.corrId());
        assertFalse(second.isOpen());
        assertEquals(1, tenants.find(TENANT).orElseThrow().connections());
    }

    @Test
    void aRequestUnansweredAtItsDeadlineGetsHandlerTimeoutFromTheSessionAndALateReplyIsDropped() {
        welcome();
        connection.receive(request(1, "slow"));
        connection.advance(LIMITS.requestTimeout().minusSeconds(10));
        connection.receive(request(2, "later"));
        echo.asked.get(1).reply().complete("fast".getBytes(UTF_8));
        connection.runTasks();
        assertEquals(List.of(2L), connection.takeWritten().stream().map(Frame::corrId).toList());
        assertEquals(1, session.requestsInFlight());

        connection.advance(Duration.ofSeconds(9));
        connection.runTasks();
        assertEquals(List.of(), connection.takeWritten(), "not before its deadline");
        connection.advance(Duration.ofSeconds(1));
        connection.runTasks();
        Frame timedOut = single(connection.takeWritten());
        assertEquals(FrameType.ERROR, timedOut.type());
        assertEquals(1, timedOut.corrId());
        assertEquals("handler.timeout", timedOut.name());
        assertEquals("no reply from handler 'echo' within 300 s", timedOut.text());
        assertEquals(0, session.requestsInFlight());

        echo.asked.get(0).reply().complete("too late".getBytes(UTF_8));
        connection.runTasks();
        assertEquals(List.of(), connection.takeWritten(), "one answer per request");
    }

    @Test
    void anIdleSessionKeepsNoneOfItsAnsweredRequests() {
        welcome();
        connection.receive(request(1, "a"), request(2, "b"));
        echo.asked.get(0).reply().complete("ok".getBytes(UTF_8));
        echo.asked.get(1).reply().complete("ok".getBytes(UTF_8));
        connection.runTasks();
        assertEquals(2, connection.takeWritten().size());
        assertEquals(0, session.requestsTracked(), "dropped once their answers were written");
    }

    @Test
    void answeredRequestsLeaveTheSessionsBookkeepingEvenBehindOneThatIsSlow() {
        welcome();
        connection.receive(request(0, "slow"));
        for (int i = 1; i <= 10_000; i++) {
            connection.receive(request(i, "quick"));
            echo.asked.get(i).reply().complete("ok".getBytes(UTF_8));
        }
        connection.runTasks();
        assertEquals(10_000, connection.takeWritten().size());
        assertEquals(1, session.requestsInFlight());
        assertTrue(session.requestsTracked() <= 2 + 64, "tracked: " + session.requestsTracked());

        echo.asked.get(0).reply().complete("finally".getBytes(UTF_8));
        connection.runTasks();
        assertEquals(0L, single(connection.takeWritten()).corrId());
        assertEquals(0, session.requestsInFlight());
    }

    @Test
    void repliesFailuresAndTimeoutsAreMappedThroughReplies() {
        welcome();
        connection.receive(request(1, "a"), request(2, "b"), request(3, "c"));
        echo.asked.get(0).reply().complete(Failure.badRequest("odd"));
        echo.asked.get(1).reply().completeExceptionally(new TimeoutException());
        echo.asked.get(2).reply().complete(new Message("x", "m".getBytes(UTF_8)));
        connection.runTasks();
        List<Frame> frames = connection.written();
        assertEquals(List.of("bad.request", "handler.timeout", "echo"), frames.stream().map(Frame::name).toList());
        assertEquals("m", frames.get(2).text());
    }

    @Test
    void eachAnsweredRequestCountsItsLatencyOnceAndEachErrorItsCode() {
        welcome();
        connection.receive(request(1, "quick"), request(2, "failing"));
        connection.advance(Duration.ofMillis(3));
        echo.asked.get(0).reply().complete("ok".getBytes(UTF_8));
        echo.asked.get(1).reply().complete(Failure.badRequest("odd"));
        echo.asked.get(1).reply().obtrudeValue("late"); // dropped: not counted again
        connection.receive(Frame.request(3, "nobody", new byte[0]));
        connection.receive(request(4, "slow"));
        connection.advance(LIMITS.requestTimeout());
        connection.runTasks();
        assertEquals(List.of(FrameType.REPLY, FrameType.ERROR, FrameType.ERROR, FrameType.ERROR),
                types(connection.takeWritten()));

        TenantMetrics metrics = tenants.find(TENANT).orElseThrow().metrics();
        RequestLatency latency = metrics.latency().read();
        assertEquals(3, latency.count(), "two answers and one timeout; no.handler never reached a handler");
        int threeMillis = bucketOf(latency, 3_000_000L);
        assertEquals(2, latency.counts().get(threeMillis), "both answered after 3 ms: " + latency.counts());
        assertEquals(1, latency.counts().get(bucketOf(latency, LIMITS.requestTimeout().toNanos())));
        assertEquals(2 * 3_000_000L + LIMITS.requestTimeout().toNanos(), latency.sumNanos());
        assertEquals(Map.of("bad.request", 1L, "no.handler", 1L, "handler.timeout", 1L), metrics.errorsByCode());
        assertEquals(3, metrics.errors());
    }

    /** The index of the bucket of {@code latency} that counts {@code nanos}. */
    private static int bucketOf(RequestLatency latency, long nanos) {
        int index = 0;
        while (index < latency.boundsNanos().size() && latency.boundsNanos().get(index) < nanos) {
            index++;
        }
        return index;
    }

    @Test
    void aPushToTheSessionActorBecomesASendFrameWithCorrIdZero() throws Exception {
        welcome();
        connection.receive(Frame.send(1, "echo", "join".getBytes(UTF_8)));
        runtime.spawned.get(0).tell(new Message("news", "hello".getBytes(UTF_8)), null);
        Frame push = single(connection.written());
        assertEquals(FrameType.SEND, push.type());
        assertEquals(0, push.corrId());
        assertEquals("news", push.name());
        assertEquals("hello", push.text());
    }

    @Test
    void aProtocolFaultIsAnsweredAndClosesOnlyThisConnection() {
        welcome();
        byte[] bytes = FrameEncoder.encode(request(1, "x")).array();
        bytes[bytes.length - 1] ^= 1;
        connection.receive(bytes);
        connection.runTasks();
        Frame error = single(connection.written());
        assertEquals(ErrorCode.FRAME_CRC.code(), error.name());
        assertFalse(connection.isOpen());
        assertTrue(runtime.spawned.isEmpty(), "no message was routed: no session actor to stop");
    }

    @Test
    void aFaultAfterARequestWaitsForItsReplyThenSendsTheErrorAndCloses() {
        welcome();
        connection.receive(request(1, "accepted"));
        connection.receive(corrupt(request(2, "corrupt")));
        connection.receive(request(3, "after the fault"));
        connection.runTasks();
        assertEquals(List.of("accepted"), echo.asked.stream().map(ask -> ask.message().text()).toList(),
                "nothing after the bad frame is read");
        assertEquals(List.of(), connection.written(), "the ERROR waits for the request before it");
        assertTrue(connection.isOpen());
        assertTrue(connection.isSuspended());

        echo.asked.get(0).reply().complete("done");
        connection.runTasks();
        List<Frame> written = connection.written();
        assertEquals(List.of(FrameType.REPLY, FrameType.ERROR), types(written));
        assertEquals(1, written.get(0).corrId());
        assertEquals(ErrorCode.FRAME_CRC.code(), written.get(1).name(), "the fault keeps its code");
        assertFalse(connection.isOpen());
        assertEquals(0, tenants.find(TENANT).orElseThrow().connections());
    }

    @Test
    void aFaultAfterARequestThatNeverAnswersClosesAtTheRequestTimeout() {
        welcome();
        byte[] tooLong = {0x7f, 0, 0, 0}; // a length field far above the frame limit
        connection.receive(request(1, "a"), request(2, "b"));
        connection.receive(tooLong);
        echo.asked.get(1).reply().complete("b");
        connection.advance(LIMITS.requestTimeout().minusSeconds(1));
        assertEquals(List.of(FrameType.REPLY), types(connection.written()));
        assertTrue(connection.isOpen(), "request 1 still has time");

        connection.advance(Duration.ofSeconds(1));
        List<Frame> written = connection.written();
        assertEquals(List.of(FrameType.REPLY, FrameType.ERROR, FrameType.ERROR), types(written));
        assertEquals(1, written.get(1).corrId());
        assertEquals(ErrorCode.HANDLER_TIMEOUT.code(), written.get(1).name());
        assertEquals(ErrorCode.FRAME_TOO_LARGE.code(), written.get(2).name());
        assertFalse(connection.isOpen());
    }

    @Test
    void aShutdownThatGivesUpDuringAFaultsDrainStillSendsTheFaultLast() {
        welcome();
        connection.receive(request(1, "slow"));
        connection.receive(corrupt(request(2, "corrupt")));
        sessionDo(Session::beginShutdown);
        assertTrue(connection.isOpen(), "request 1 is still answered");
        sessionDo(Session::forceShutdown);
        List<Frame> written = connection.written();
        assertEquals(List.of(ErrorCode.SERVER_SHUTDOWN.code(), ErrorCode.FRAME_CRC.code()),
                written.stream().map(Frame::name).toList());
        assertFalse(connection.isOpen());
    }

    @Test
    void aFaultBeforeHelloIsAnsweredAndClosesAtOnce() {
        connection.receive(corrupt(Frame.hello(1, TENANT, TOKEN)));
        connection.runTasks();
        assertEquals(ErrorCode.FRAME_CRC.code(), single(connection.written()).name());
        assertFalse(connection.isOpen());
    }

    private static byte[] corrupt(Frame frame) {
        byte[] bytes = FrameEncoder.encode(frame).array();
        bytes[bytes.length - 1] ^= 1;
        return bytes;
    }

    private void welcome() {
        connection.receive(Frame.hello(1, TENANT, TOKEN));
        connection.runTasks(); // the authenticator's outcome
        assertEquals(FrameType.WELCOME, single(connection.takeWritten()).type());
    }

    private void sessionDo(Consumer<Session> action) {
        action.accept(session);
        connection.runTasks();
    }
}
