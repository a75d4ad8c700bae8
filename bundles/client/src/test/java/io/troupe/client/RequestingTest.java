package io.troupe.client;

import static io.troupe.testsupport.Await.failure;
import static io.troupe.testsupport.Await.result;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.troupe.protocol.ErrorCode;
import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameType;

class RequestingTest {

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

    private TroupeClient connected(TroupeClient.Builder builder) throws InterruptedException {
        client = builder.port(server.port()).tenant("acme").token("s3cret").build();
        result(client.connect());
        return client;
    }

    @Test
    void aRequestCompletesWithTheReplyContent() throws Exception {
        connected(TroupeClient.builder());

        assertEquals("hello", new String(result(client.request("echo", "hello".getBytes(UTF_8))), UTF_8));

        Frame request = server.nextFrame();
        assertEquals(FrameType.REQUEST, request.type());
        assertEquals("echo", request.name());
    }

    @Test
    void aThousandPipelinedRequestsAnsweredOutOfOrderAreMatchedByCorrId() throws Exception {
        int count = 1000;
        List<Frame> held = new ArrayList<>();
        server.handler((peer, frame) -> {
            if (frame.type() == FrameType.BYE) {
                peer.close();
                return;
            }
            held.add(frame);
            if (held.size() == count) {
                Collections.shuffle(held, new Random(42));
                for (Frame request : held) {
                    peer.reply(request, request.content());
                }
            }
        });
        connected(TroupeClient.builder());

        List<CompletableFuture<byte[]>> replies = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            replies.add(client.request("echo", ("request-" + i).getBytes(UTF_8)));
        }

        for (int i = 0; i < count; i++) {
            assertEquals("request-" + i, new String(result(replies.get(i)), UTF_8));
        }
        assertEquals(0, result(client.inFlight()));
    }

    @Test
    void largeAndSmallRepliesPipelinedComeBackWholeAndInOrder() throws Exception {
        connected(TroupeClient.builder()); // the test server echoes
        Random random = new Random(11);
        List<byte[]> sent = new ArrayList<>();
        List<CompletableFuture<byte[]>> replies = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            byte[] content = new byte[i % 3 == 0 ? 4_000 + random.nextInt(900_000) : random.nextInt(300)];
            random.nextBytes(content);
            sent.add(content);
            replies.add(client.request("echo", content));
        }

        for (int i = 0; i < sent.size(); i++) {
            assertArrayEquals(sent.get(i), result(replies.get(i)),
                    "reply " + i + " of " + sent.get(i).length + " bytes");
        }
        assertEquals("small", new String(result(client.request("echo", "small".getBytes(UTF_8))), UTF_8));
    }

    @Test
    void anErrorAnswerFailsTheRequestWithItsCodeAndDetail() throws Exception {
        server.handler((peer, frame) -> {
            if (frame.type() != FrameType.REQUEST) {
                TestServer.ECHO.onFrame(peer, frame);
            } else if (frame.name().equals("missing")) {
                peer.error(frame, ErrorCode.NO_HANDLER, "no handler named 'missing'");
            } else {
                peer.write(new Frame(FrameType.ERROR, frame.corrId(), "future.code",
                        "from a newer server".getBytes(UTF_8)));
            }
        });
        connected(TroupeClient.builder());

        TroupeClientException known = assertInstanceOf(TroupeClientException.class,
                failure(client.request("missing", new byte[0])));
        TroupeClientException unknown = assertInstanceOf(TroupeClientException.class,
                failure(client.request("other", new byte[0])));

        assertEquals("no.handler", known.code());
        assertEquals("no handler named 'missing'", known.detail());
        assertEquals("no.handler: no handler named 'missing'", known.getMessage());
        assertEquals("future.code", unknown.code());
        assertTrue(unknown.errorCode().isEmpty());
        assertTrue(client.isConnected());
    }

    @Test
    void aRequestWithoutAnswerTimesOutAndIsForgotten() throws Exception {
        BlockingQueue<Frame> held = new LinkedBlockingQueue<>();
        server.handler((peer, frame) -> {
            if (frame.name().equals("slow")) {
                held.add(frame);
            } else {
                TestServer.ECHO.onFrame(peer, frame);
            }
        });
        connected(TroupeClient.builder().requestTimeout(Duration.ofMillis(200)));

        Throwable failure = failure(client.request("slow", "late".getBytes(UTF_8)));

        assertInstanceOf(TimeoutException.class, failure);
        assertTrue(failure.getMessage().contains("'slow'"), failure.getMessage());
        assertEquals(0, result(client.inFlight()));
        Frame late = TestServer.poll(held, "the slow request");
        server.nextPeer().reply(late, "too late".getBytes(UTF_8));
        assertEquals("next", new String(result(client.request("echo", "next".getBytes(UTF_8))), UTF_8));
        assertEquals(0, result(client.inFlight()));
    }

    @Test
    void aRequestLargerThanTheFrameLimitFailsWithoutBeingSent() throws Exception {
        connected(TroupeClient.builder().maxFrameBytes(1024));

        TroupeClientException e = assertInstanceOf(TroupeClientException.class,
                failure(client.request("echo", new byte[2000])));

        assertEquals("frame.too_large", e.code());
        result(client.request("echo", new byte[10]));
        assertEquals(10, server.nextFrame().content().length);
    }

    @Test
    void aRequestWithAnUnencodableNameIsRejectedAtOnce() throws Exception {
        connected(TroupeClient.builder());

        assertThrows(IllegalArgumentException.class, () -> client.request("x".repeat(70_000), new byte[0]));
        assertThrows(NullPointerException.class, () -> client.request(null, new byte[0]));
    }

    @Test
    void contentMayBeReusedOnceRequestReturns() throws Exception {
        connected(TroupeClient.builder());
        byte[] content = "original".getBytes(UTF_8);

        CompletableFuture<byte[]> reply = client.request("echo", content);
        content[0] = 'X';

        assertEquals("original", new String(result(reply), UTF_8));
    }

    @Test
    void pushesReachThePushListenerOnTheLoopThreadEvenAfterItThrew() throws Exception {
        record Push(String name, String content, String thread) {
        }
        BlockingQueue<Push> pushes = new LinkedBlockingQueue<>();
        connected(TroupeClient.builder().pushListener((name, content) -> {
            pushes.add(new Push(name, new String(content, UTF_8), Thread.currentThread().getName()));
            if (name.equals("boom")) {
                throw new IllegalStateException("listener failure, expected by the test");
            }
        }));
        TestServer.Peer peer = server.nextPeer();

        peer.push("boom", "first".getBytes(UTF_8));
        peer.push("news", "second".getBytes(UTF_8));

        Push first = TestServer.poll(pushes, "the first push");
        Push second = TestServer.poll(pushes, "the second push");
        assertEquals("boom", first.name());
        assertEquals(new Push("news", "second", "troupe-client-acme-1"), second);
        assertTrue(client.isConnected());
    }

    @Test
    void aSendReachesTheServerOneWay() throws Exception {
        connected(TroupeClient.builder());

        result(client.send("log", "line".getBytes(UTF_8)));

        Frame send = server.nextFrame();
        assertEquals(FrameType.SEND, send.type());
        assertEquals("log", send.name());
        assertEquals("line", send.text());
        assertFalse(send.corrId() == 0);
    }

    @Test
    void pingCompletesWithTheRoundTripTime() throws Exception {
        connected(TroupeClient.builder());

        Duration rtt = result(client.ping());

        assertFalse(rtt.isNegative());
        assertEquals(FrameType.PING, server.nextFrame().type());
    }

    @Test
    void requestsFromManyThreadsAreAllAnswered() throws Exception {
        connected(TroupeClient.builder());
        List<CompletableFuture<byte[]>> replies = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int thread = t;
            threads.add(new Thread(() -> {
                for (int i = 0; i < 250; i++) {
                    replies.add(client.request("echo", (thread + ":" + i).getBytes(UTF_8)));
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread thread : threads) {
            thread.join(10_000);
        }

        assertEquals(1000, replies.size());
        for (CompletableFuture<byte[]> reply : replies) {
            assertTrue(new String(result(reply), UTF_8).contains(":"));
        }
        assertArrayEquals(new byte[] {1}, result(client.request("echo", new byte[] {1})));
    }
}
