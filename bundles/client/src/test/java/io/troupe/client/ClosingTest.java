package io.troupe.client;

import static io.troupe.client.RecordingListener.Kind.CONNECTED;
import static io.troupe.client.RecordingListener.Kind.DISCONNECTED;
import static io.troupe.client.RecordingListener.Kind.RECONNECTING;
import static io.troupe.testsupport.Await.failure;
import static io.troupe.testsupport.Await.result;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameType;

class ClosingTest {

    private final RecordingListener listener = new RecordingListener();
    private final BlockingQueue<Frame> held = new LinkedBlockingQueue<>();
    private TestServer server;
    private TroupeClient client;

    @BeforeEach
    void startServer() throws IOException {
        server = TestServer.start("s3cret");
    }

    @AfterEach
    void stop() throws IOException {
        if (client != null) {
            client.close();
        }
        server.close();
    }

    private TroupeClient.Builder builder() {
        return TroupeClient.builder().port(server.port()).tenant("acme").token("s3cret").connectionListener(listener);
    }

    @Test
    void closeSendsByeLetsTheServerAnswerWhatItReceivedAndIsIdempotent() throws Exception {
        // Like the real server: a BYE from the client is answered by finishing the work, then closing.
        server.handler((peer, frame) -> {
            if (frame.type() == FrameType.BYE) {
                peer.reply(held.remove(), "finished".getBytes(UTF_8));
                peer.close();
            } else {
                held.add(frame);
            }
        });
        client = builder().build();
        result(client.connect());
        CompletableFuture<byte[]> inFlight = client.request("work", new byte[0]);
        assertEquals(FrameType.REQUEST, server.nextFrame().type());

        CompletableFuture<Void> closing = client.closeAsync();

        assertEquals(FrameType.BYE, server.nextFrame().type());
        assertEquals("finished", new String(result(inFlight), UTF_8));
        result(closing);
        assertTrue(client.isClosed());
        assertFalse(client.isConnected());
        client.close();
        assertTrue(client.closeAsync().isDone());
        assertInstanceOf(ConnectionLostException.class, failure(client.request("echo", new byte[0])));
        assertInstanceOf(ConnectionLostException.class, failure(client.connect()));
        listener.next(CONNECTED);
        listener.next(DISCONNECTED);
        assertTrue(listener.events.isEmpty());
    }

    @Test
    void closeGivesUpAfterTheCloseTimeoutWhenTheServerNeverCloses() throws Exception {
        server.handler((peer, frame) -> { }); // holds everything, BYE included
        client = builder().closeTimeout(Duration.ofMillis(200)).build();
        result(client.connect());
        CompletableFuture<byte[]> inFlight = client.request("work", new byte[0]);
        server.nextFrame();
        TestServer.Peer peer = server.nextPeer();

        client.close();

        assertTrue(client.isClosed());
        Throwable failure = failure(inFlight);
        assertInstanceOf(ConnectionLostException.class, failure);
        assertTrue(failure.getMessage().contains("did not close"), failure.getMessage());
        assertEquals(FrameType.BYE, server.nextFrame().type());
        assertTrue(peer.awaitClosed(Duration.ofSeconds(10)));
    }

    @Test
    void closeWhileWaitingToReconnectEndsAtOnce() throws Exception {
        client = builder().reconnectBackoff(Duration.ofMinutes(10), Duration.ofMinutes(10))
                .backoffJitter(ceiling -> ceiling).build();
        result(client.connect());
        server.nextPeer().close();
        listener.next(CONNECTED);
        listener.next(DISCONNECTED);
        listener.next(RECONNECTING);

        result(client.closeAsync());

        assertTrue(client.isClosed());
        assertInstanceOf(ConnectionLostException.class, failure(client.connect()));
    }

    @Test
    void closeBeforeConnectingEndsAtOnce() throws Exception {
        client = builder().build();

        client.close();

        assertTrue(client.isClosed());
        assertInstanceOf(ConnectionLostException.class, failure(client.connect()));
    }

    @Test
    void closingAClientStopsTheThreadOfItsOwnLoop() throws Exception {
        AtomicReference<Thread> loopThread = new AtomicReference<>();
        client = builder().connectionListener(new ConnectionListener() {
            @Override
            public void connected(String sessionId) {
                loopThread.set(Thread.currentThread());
            }
        }).build();
        result(client.connect());

        client.close();

        Thread thread = loopThread.get();
        thread.join(10_000);
        assertFalse(thread.isAlive(), thread + " still runs");
        assertTrue(thread.isDaemon());
    }
}
