package io.troupe.client;

import static io.troupe.client.RecordingListener.Kind.CONNECTED;
import static io.troupe.client.RecordingListener.Kind.DISCONNECTED;
import static io.troupe.client.RecordingListener.Kind.RECONNECTING;
import static io.troupe.client.RecordingListener.Kind.REDIRECTED;
import static io.troupe.testsupport.Await.failure;
import static io.troupe.testsupport.Await.result;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameType;

/**
 * Protocol 1.4's redirects and the client's servers, against two scripted servers on loopback: "A", where
 * the client starts, and "B", which answers every request with {@code B:} and its content, so that a reply
 * tells which node served it.
 */
class RedirectingTest {

    private final RecordingListener listener = new RecordingListener();
    /** Requests A holds for the test: "slow" and "get". */
    private final BlockingQueue<Frame> heldByA = new LinkedBlockingQueue<>();
    private TestServer a;
    private TestServer b;
    private TroupeClient client;

    @BeforeEach
    void startServers() throws IOException {
        a = TestServer.start("s3cret");
        a.handler((peer, frame) -> {
            if (frame.name().equals("slow") || frame.name().equals("get")) {
                heldByA.add(frame);
            } else {
                TestServer.ECHO.onFrame(peer, frame);
            }
        });
        b = TestServer.start("s3cret");
        b.handler((peer, frame) -> {
            if (frame.type() == FrameType.REQUEST) {
                peer.reply(frame, ("B:" + frame.text()).getBytes(UTF_8));
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
        a.close();
        b.close();
    }

    private TroupeClient.Builder builder(String... servers) {
        return TroupeClient.builder().servers(servers).tenant("acme").token("s3cret").connectionListener(listener)
                .reconnectBackoff(Duration.ofMillis(10), Duration.ofMillis(100)).backoffJitter(ceiling -> ceiling);
    }

    /** Hands every event to {@link #listener}; tests override a callback to act on the loop as well. */
    private class Forwarding implements ConnectionListener {
        @Override
        public void connected(String sessionId) {
            listener.connected(sessionId);
        }

        @Override
        public void disconnected(Throwable cause) {
            listener.disconnected(cause);
        }

        @Override
        public void reconnecting(int attempt, Duration delay, Throwable cause) {
            listener.reconnecting(attempt, delay, cause);
        }

        @Override
        public void redirected(String from, String to, Duration delay) {
            listener.redirected(from, to, delay);
        }
    }

    private static String text(CompletableFuture<byte[]> reply) throws InterruptedException {
        return new String(result(reply), UTF_8);
    }

    @Test
    void aHelloRedirectLeadsToTheOwnerItNames() throws Exception {
        a.redirectHellos(b.address());
        client = builder(a.address()).build();

        assertEquals("session-1", result(client.connect()));

        RecordingListener.Event redirect = listener.next(REDIRECTED);
        assertEquals(a.address(), redirect.from());
        assertEquals(b.address(), redirect.to());
        assertEquals(Duration.ZERO, redirect.delay());
        listener.next(CONNECTED);
        assertEquals("B:hi", text(client.request("echo", "hi".getBytes(UTF_8))));
        assertEquals(1, a.hellos.size());
        assertEquals(1, b.hellos.size());
    }

    @Test
    void aRedirectThatNamesNoOwnerFallsBackToTheNextServerAfterABackoff() throws Exception {
        a.redirectHellos("");
        client = builder(a.address(), b.address()).build();

        assertEquals("session-1", result(client.connect()));

        RecordingListener.Event redirect = listener.next(REDIRECTED);
        assertEquals(a.address(), redirect.from());
        assertEquals(b.address(), redirect.to());
        assertEquals(Duration.ofMillis(10), redirect.delay(), "the first delay of the backoff, without jitter");
        listener.next(CONNECTED);
        assertEquals("B:hi", text(client.request("echo", "hi".getBytes(UTF_8))));
    }

    @Test
    void aByeTenantMovedSendsTheUnansweredRequestsToTheNewOwnerAndNotTheAnsweredOnes() throws Exception {
        List<CompletableFuture<byte[]>> madeWhileRedirected = new ArrayList<>();
        client = builder(a.address()).reconnect(false).connectionListener(new Forwarding() {
            @Override
            public void redirected(String from, String to, Duration delay) {
                // On the loop, between the BYE and B's WELCOME: held, then sent to B.
                madeWhileRedirected.add(client.request("echo", "meanwhile".getBytes(UTF_8)));
                super.redirected(from, to, delay);
            }
        }).build();
        result(client.connect());
        listener.next(CONNECTED);
        TestServer.Peer peer = a.nextPeer();
        List<CompletableFuture<byte[]>> requests = new ArrayList<>();
        for (String content : List.of("one", "two", "three")) {
            requests.add(client.request("slow", content.getBytes(UTF_8)));
        }
        Frame one = TestServer.poll(heldByA, "request one");
        Frame two = TestServer.poll(heldByA, "request two");
        Frame three = TestServer.poll(heldByA, "request three");

        peer.reply(one, "A:one".getBytes(UTF_8));
        assertEquals("A:one", text(requests.get(0)));
        peer.moved(b.address());

        Throwable cause = listener.next(DISCONNECTED).cause();
        assertTrue(cause.getMessage().contains("tenant.moved " + b.address()), cause.getMessage());
        assertEquals(b.address(), listener.next(REDIRECTED).to());
        listener.next(CONNECTED);
        assertEquals("B:two", text(requests.get(1)));
        assertEquals("B:three", text(requests.get(2)));
        assertEquals("B:meanwhile", text(madeWhileRedirected.get(0)));
        List<Frame> atB = List.of(b.nextFrame(), b.nextFrame(), b.nextFrame());
        assertEquals(List.of(two.corrId(), three.corrId()), List.of(atB.get(0).corrId(), atB.get(1).corrId()),
                "the unanswered requests, with their corrIds, first and in order");
        assertEquals("meanwhile", atB.get(2).text());
        assertNull(b.received.poll(), "the answered request is not sent again");
        assertEquals(0, result(client.inFlight()));
    }

    @Test
    void aByeThatNamesNoOwnerSendsTheClientToTheNextServerWithItsUnansweredRequests() throws Exception {
        client = builder(a.address(), b.address()).build();
        result(client.connect());
        listener.next(CONNECTED);
        TestServer.Peer peer = a.nextPeer();
        CompletableFuture<byte[]> unanswered = client.request("slow", "x".getBytes(UTF_8));
        TestServer.poll(heldByA, "the request");

        peer.moved("");

        listener.next(DISCONNECTED);
        RecordingListener.Event redirect = listener.next(REDIRECTED);
        assertEquals(b.address(), redirect.to());
        assertEquals(Duration.ofMillis(10), redirect.delay());
        assertEquals("B:x", text(unanswered));
        listener.next(CONNECTED);
    }

    @Test
    void redirectsInALoopEndWithAClearErrorNamingTheAddressesTried() throws Exception {
        a.redirectHellos(b.address());
        b.redirectHellos(a.address());
        client = builder(a.address()).maxRedirects(3).build();

        Throwable failure = failure(client.connect());

        TroupeClientException error = assertInstanceOf(TroupeClientException.class, failure);
        assertEquals("tenant.moved", error.code());
        String route = String.join(" -> ", a.address(), b.address(), a.address(), b.address(), a.address());
        assertTrue(error.detail().contains("redirected 4 times in a row without a WELCOME, more than the 3 allowed"),
                error.detail());
        assertTrue(error.detail().contains(route), error.detail());
        assertEquals(2, a.hellos.size());
        assertEquals(2, b.hellos.size());
        assertFalse(client.isConnected());
    }

    @Test
    void aLostConnectionSendsAgainOnlyTheIdempotentRequestsAndFailsTheOthersAsOfUnknownOutcome() throws Exception {
        List<CompletableFuture<byte[]>> madeWhileReconnecting = new ArrayList<>();
        client = builder(a.address(), b.address()).idempotent("get").connectionListener(new Forwarding() {
            @Override
            public void reconnecting(int attempt, Duration delay, Throwable cause) {
                if (attempt == 1) {
                    madeWhileReconnecting.add(client.request("get", "later".getBytes(UTF_8)));
                    madeWhileReconnecting.add(client.request("slow", "later".getBytes(UTF_8)));
                }
                super.reconnecting(attempt, delay, cause);
            }
        }).build();
        result(client.connect());
        listener.next(CONNECTED);
        TestServer.Peer peer = a.nextPeer();
        CompletableFuture<byte[]> slow = client.request("slow", "x".getBytes(UTF_8));
        CompletableFuture<byte[]> get = client.request("get", "y".getBytes(UTF_8));
        CompletableFuture<Duration> ping = client.ping();
        TestServer.poll(heldByA, "slow");
        TestServer.poll(heldByA, "get");

        // A crashes: no BYE, and nothing listens there any more.
        a.stopListening();
        peer.close();

        Throwable lost = failure(slow);
        assertInstanceOf(ConnectionLostException.class, lost);
        assertTrue(lost.getMessage().contains("outcome of REQUEST 'slow'") && lost.getMessage().contains("unknown")
                && lost.getMessage().contains("not idempotent"), lost.getMessage());
        assertEquals("B:y", text(get));
        assertTrue(result(ping).compareTo(Duration.ZERO) >= 0);
        assertEquals("B:later", text(madeWhileReconnecting.get(0)));
        Throwable refused = failure(madeWhileReconnecting.get(1));
        assertInstanceOf(ConnectionLostException.class, refused);
        assertTrue(refused.getMessage().contains("not connected"), refused.getMessage());
        listener.next(DISCONNECTED);
        assertEquals(1, listener.next(RECONNECTING).attempt());
        assertEquals(2, listener.next(RECONNECTING).attempt(), "A refused: the next server of the round, at once");
        listener.next(CONNECTED);
        List<String> atB = new ArrayList<>();
        for (Frame frame = b.received.poll(5, TimeUnit.SECONDS); frame != null; frame = b.received.poll()) {
            atB.add(frame.type() + " " + frame.name());
        }
        assertFalse(atB.contains("REQUEST slow"), "slow is never sent to B: " + atB);
    }

    @Test
    void withoutReconnectionEvenAnIdempotentRequestFailsWhenTheConnectionIsLost() throws Exception {
        client = builder(a.address()).idempotent("get").reconnect(false).build();
        result(client.connect());
        TestServer.Peer peer = a.nextPeer();
        CompletableFuture<byte[]> get = client.request("get", "y".getBytes(UTF_8));
        TestServer.poll(heldByA, "get");

        peer.close();

        Throwable lost = failure(get);
        assertInstanceOf(ConnectionLostException.class, lost);
        assertTrue(lost.getMessage().contains("no connection to " + a.address()), lost.getMessage());
    }

    @Test
    void aRedirectToAnAddressThatCouldNotBeReachedBacksOffToTheNextServerInstead() throws Exception {
        String dead = a.address(); // a node just killed, that another still names as the owner for a moment
        a.stopListening();
        b.redirectHellos(dead);
        TestServer c = TestServer.start("s3cret");
        try {
            client = builder(dead, b.address(), c.address()).build();

            assertEquals("session-1", result(client.connect()));

            RecordingListener.Event redirect = listener.next(REDIRECTED);
            assertEquals(b.address(), redirect.from());
            assertEquals(c.address(), redirect.to(), "not back to the address that refused the connection");
            assertEquals(Duration.ofMillis(10), redirect.delay(), "after the backoff, as for a redirect naming no one");
            listener.next(CONNECTED);
            assertEquals(1, c.hellos.size());
        } finally {
            client.close();
            client = null;
            c.close();
        }
    }

    @Test
    void connectTriesTheNextServerWhenOneCannotBeReachedAndReportsEveryFailureWhenNoneCan() throws Exception {
        String dead = a.address();
        a.stopListening();
        client = builder(dead, b.address()).build();

        assertEquals("session-1", result(client.connect()));
        assertEquals("B:hi", text(client.request("echo", "hi".getBytes(UTF_8))));
        client.close();

        b.stopListening();
        client = builder(dead, b.address()).build();
        Throwable failure = failure(client.connect());

        assertInstanceOf(ConnectException.class, failure);
        assertEquals(1, failure.getSuppressed().length, "the other server's failure");
    }

    @Test
    void theBuilderTakesServersOrAHostButNotBoth() {
        TroupeClient.Builder both = TroupeClient.builder().host("localhost").servers("a:1").tenant("t").token("x");
        String conflict = assertThrows(IllegalStateException.class, both::build).getMessage();
        assertTrue(conflict.contains("both host and servers"), conflict);
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> TroupeClient.builder().servers("a:1", "b:seventy"));
        assertTrue(bad.getMessage().contains("'b:seventy'"), bad.getMessage());
        assertThrows(IllegalArgumentException.class, () -> TroupeClient.builder().servers());
        assertThrows(IllegalArgumentException.class, () -> TroupeClient.builder().idempotent(""));
        assertThrows(IllegalArgumentException.class, () -> TroupeClient.builder().maxRedirects(-1));
    }
}
