package io.troupe.client;

import static io.troupe.client.RecordingListener.Kind.CONNECTED;
import static io.troupe.client.RecordingListener.Kind.DISCONNECTED;
import static io.troupe.client.RecordingListener.Kind.RECONNECTING;
import static io.troupe.testsupport.Await.failure;
import static io.troupe.testsupport.Await.result;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameType;

class ReconnectingTest {

    private final RecordingListener listener = new RecordingListener();
    private final BlockingQueue<Frame> held = new LinkedBlockingQueue<>();
    private TestServer server;
    private TroupeClient client;

    @BeforeEach
    void startServer() throws IOException {
        server = TestServer.start("s3cret");
        // Holds requests named "slow" for the test to answer; echoes the rest.
        server.handler((peer, frame) -> {
            if (frame.name().equals("slow")) {
                held.add(frame);
            } else {
                TestServer.ECHO.onFrame(peer, frame);
            }
        });
    }

    @AfterEach
    void stop() throws IOException {
        if (client != null) {
            client.close();
        }
        server.close();
    }

    private TroupeClient connected(TroupeClient.Builder builder) throws InterruptedException {
        client = builder.port(server.port()).tenant("acme").token("s3cret").connectionListener(listener).build();
        result(client.connect());
        listener.next(CONNECTED);
        return client;
    }

    @Test
    void aDroppedConnectionFailsRequestsInFlightAndTheClientReconnectsWithANewHello() throws Exception {
        connected(TroupeClient.builder().reconnectBackoff(Duration.ofMillis(10), Duration.ofMillis(100)));
        TestServer.Peer peer = server.nextPeer();
        List<CompletableFuture<byte[]>> inFlight = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            inFlight.add(client.request("slow", new byte[] {(byte) i}));
        }
        for (int i = 0; i < 3; i++) {
            TestServer.poll(held, "held request " + i);
        }

        peer.close();

        for (CompletableFuture<byte[]> request : inFlight) {
            assertInstanceOf(ConnectionLostException.class, failure(request));
        }
        assertInstanceOf(ConnectionLostException.class, listener.next(DISCONNECTED).cause());
        assertEquals(1, listener.next(RECONNECTING).attempt());
        assertEquals("session-2", listener.next(CONNECTED).sessionId());
        Frame first = TestServer.poll(server.hellos, "first HELLO");
        Frame second = TestServer.poll(server.hellos, "second HELLO");
        assertEquals(FrameType.HELLO, second.type());
        assertEquals("acme", second.name());
        assertTrue(Long.compareUnsigned(second.corrId(), first.corrId()) > 0);
        assertEquals("again", new String(result(client.request("echo", "again".getBytes(UTF_8))), UTF_8));
    }

    @Test
    void reconnectDelaysDoubleUpToTheCapAndStartOverAfterASuccess() throws Exception {
        Duration initial = Duration.ofMillis(10);
        Duration cap = Duration.ofMillis(80);
        // No jitter: each delay is its ceiling, so the sequence is exact.
        connected(TroupeClient.builder().reconnectBackoff(initial, cap).backoffJitter(ceiling -> ceiling));
        int failedAttempts = 5;
        server.dropNextConnections(failedAttempts);

        server.nextPeer().close();

        listener.next(DISCONNECTED);
        List<Duration> delays = new ArrayList<>();
        List<Long> startNanos = new ArrayList<>();
        for (int attempt = 1; attempt <= failedAttempts + 1; attempt++) {
            RecordingListener.Event event = listener.next(RECONNECTING);
            assertEquals(attempt, event.attempt());
            delays.add(event.delay());
            startNanos.add(event.nanos());
        }
        listener.next(CONNECTED);
        assertEquals(List.of(ms(10), ms(20), ms(40), ms(80), ms(80), ms(80)), delays);
        // Each attempt waited its delay: attempt n+1 was accepted at least delay(n+1) after attempt n.
        List<Long> accepts = server.acceptNanos.subList(1, server.acceptNanos.size());
        assertEquals(failedAttempts + 1, accepts.size());
        for (int i = 0; i < accepts.size(); i++) {
            assertTrue(accepts.get(i) - startNanos.get(i) >= delays.get(i).toNanos(),
                    "attempt " + (i + 1) + " came before its delay");
        }

        server.nextPeer().close();

        listener.next(DISCONNECTED);
        RecordingListener.Event afterSuccess = listener.next(RECONNECTING);
        assertEquals(1, afterSuccess.attempt());
        assertEquals(initial, afterSuccess.delay());
    }

    @Test
    void withFullJitterEachDelayStaysBetweenZeroAndItsCeiling() throws Exception {
        connected(TroupeClient.builder().reconnectBackoff(Duration.ofMillis(4), Duration.ofMillis(16)));
        server.dropNextConnections(5);

        server.nextPeer().close();

        listener.next(DISCONNECTED);
        for (int attempt = 1; attempt <= 6; attempt++) {
            Duration delay = listener.next(RECONNECTING).delay();
            long ceiling = Math.min(16, 4L << (attempt - 1));
            assertTrue(!delay.isNegative() && delay.compareTo(ms(ceiling)) <= 0,
                    "attempt " + attempt + " waited " + delay + ", above " + ceiling + " ms");
        }
        listener.next(CONNECTED);
    }

    @Test
    void whileWaitingToReconnectRequestsFailFastAndConnectAttemptsAtOnce() throws Exception {
        connected(TroupeClient.builder().reconnectBackoff(Duration.ofMinutes(10), Duration.ofMinutes(10))
                .backoffJitter(ceiling -> ceiling));

        server.nextPeer().close();
        listener.next(DISCONNECTED);
        assertEquals(Duration.ofMinutes(10), listener.next(RECONNECTING).delay());

        Throwable failure = failure(client.request("echo", new byte[0]));
        assertInstanceOf(ConnectionLostException.class, failure);
        assertTrue(failure.getMessage().contains("reconnect"), failure.getMessage());

        assertEquals("session-2", result(client.connect()));
        listener.next(CONNECTED);
    }

    @Test
    void aByeFromTheServerLetsAnswersInAndFailsTheRestThenTheClientReconnects() throws Exception {
        BlockingQueue<String> pushes = new LinkedBlockingQueue<>();
        connected(TroupeClient.builder().reconnectBackoff(Duration.ofMillis(10), Duration.ofMillis(10))
                .pushListener((name, content) -> pushes.add(name)));
        TestServer.Peer peer = server.nextPeer();
        CompletableFuture<byte[]> answered = client.request("slow", "a".getBytes(UTF_8));
        CompletableFuture<byte[]> unanswered = client.request("slow", "b".getBytes(UTF_8));
        Frame first = TestServer.poll(held, "request a");
        TestServer.poll(held, "request b");

        peer.bye();
        peer.push("after-bye", new byte[0]);
        // Frames are handled in order: once the push is in, the BYE has been taken.
        assertEquals("after-bye", TestServer.poll(pushes, "the push after BYE"));
        Throwable refused = failure(client.request("echo", new byte[0]));
        peer.reply(first, "answer a".getBytes(UTF_8));
        assertEquals("answer a", new String(result(answered), UTF_8));
        peer.close();

        assertInstanceOf(ConnectionLostException.class, refused);
        assertTrue(refused.getMessage().contains("closing"), refused.getMessage());
        assertInstanceOf(ConnectionLostException.class, failure(unanswered));
        listener.next(DISCONNECTED);
        listener.next(RECONNECTING);
        assertEquals("session-2", listener.next(CONNECTED).sessionId());
    }

    @Test
    void theReasonABYECarriesExplainsTheEndOfTheSession() throws Exception {
        connected(TroupeClient.builder().reconnectBackoff(Duration.ofMillis(10), Duration.ofMillis(10)));
        TestServer.Peer peer = server.nextPeer();
        CompletableFuture<byte[]> unanswered = client.request("slow", "a".getBytes(UTF_8));
        TestServer.poll(held, "request a");

        peer.bye("tenant removed");
        peer.close();

        Throwable failure = failure(unanswered);
        assertInstanceOf(ConnectionLostException.class, failure);
        assertTrue(failure.getMessage().contains("said BYE: tenant removed"), failure.getMessage());
        Throwable cause = listener.next(DISCONNECTED).cause();
        assertTrue(cause.getMessage().contains("tenant removed"), cause.getMessage());
    }

    @Test
    void keepAlivePingsAnIdleConnection() throws Exception {
        connected(TroupeClient.builder().keepAlive(Duration.ofMillis(50)));

        assertEquals(FrameType.PING, server.nextFrame().type());
        assertEquals(FrameType.PING, server.nextFrame().type());
        assertTrue(client.isConnected());
    }

    @Test
    void aKeepAlivePingWithoutPongDropsTheConnectionAndTheClientReconnects() throws Exception {
        server.handler((peer, frame) -> { // answers nothing, not even PING
            if (frame.type() == FrameType.BYE) {
                peer.close();
            }
        });
        connected(TroupeClient.builder().keepAlive(Duration.ofMillis(50)).requestTimeout(Duration.ofMillis(200))
                .reconnectBackoff(Duration.ofMillis(10), Duration.ofMillis(10)));

        Throwable cause = listener.next(DISCONNECTED).cause();

        assertInstanceOf(ConnectionLostException.class, cause);
        assertTrue(cause.getMessage().contains("no PONG"), cause.getMessage());
        listener.next(RECONNECTING);
        listener.next(CONNECTED);
    }

    @Test
    void withoutReconnectionADropLeavesTheClientDisconnectedUntilConnectIsCalled() throws Exception {
        connected(TroupeClient.builder().reconnect(false));

        server.nextPeer().close();
        listener.next(DISCONNECTED);

        assertInstanceOf(ConnectionLostException.class, failure(client.request("echo", new byte[0])));
        assertEquals("session-2", result(client.connect()));
        assertEquals(CONNECTED, listener.next(CONNECTED).kind());
    }

    private static Duration ms(long millis) {
        return Duration.ofMillis(millis);
    }
}
