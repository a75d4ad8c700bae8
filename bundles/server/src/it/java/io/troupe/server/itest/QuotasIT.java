package io.troupe.server.itest;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import javax.inject.Inject;

import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.BundleContext;

import io.troupe.protocol.ErrorCode;
import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameType;
import io.troupe.testsupport.TestClient;

/**
 * Limits that protect the server and other clients: the tenant's connection quota, its request rate
 * (which paces the tenant's connections instead of refusing requests), and a client that does not read
 * its answers: it is not read either, holds the server's memory to about the connection's high-water
 * mark, and loses nothing (the slow-consumer cut-off behind it is the reactor's, tested there).
 *
 * <p><b>Threading:</b> runs on JUnit's thread inside the framework (and one writer thread in the
 * slow-consumer test); one framework per class.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class QuotasIT extends ServerTest {

    private static ServerControl server;

    @Inject
    private BundleContext context;

    @Before
    public void serverRuns() throws Exception {
        if (server == null) {
            server = new ServerControl(context);
            server.configure(Map.of()); // the defaults, on this test's port
            server.start();
        }
    }

    @Test
    public void aTenantAtItsConnectionLimitRefusesTheNextHelloUntilOneCloses() throws IOException {
        String token = server.addTenant("pair", "maxConnections", "2");
        TestClient first = server.openWhenServed("pair", token);
        try (TestClient second = server.openWhenServed("pair", token);
             TestClient third = TestClient.connect(server.port())) {
            third.send(Frame.hello(7, "pair", token));
            Frame refused = ProtocolErrorsIT.assertErrorThenClose(third, ErrorCode.QUOTA_CONNECTIONS, 7);
            assertTrue(refused.text(), refused.text().contains("2"));
            ProtocolErrorsIT.assertEcho(first, 1, "the first two are served");
            first.close();
            try (TestClient fourth = server.openWhenServed("pair", token)) { // the closed one no longer counts
                ProtocolErrorsIT.assertEcho(fourth, 1, "served");
            }
            ProtocolErrorsIT.assertEcho(second, 1, "still served");
        }
    }

    @Test
    public void requestsBeyondTheTenantsRateAreThrottledAcrossAllItsConnectionsAndAllAnswered() throws IOException {
        String token = server.addTenant("rated", "maxRequestsPerSecond", "5");
        server.awaitTenant("rated", token);
        try (TestClient a = TestClient.open(server.port(), "rated", token);
             TestClient b = TestClient.open(server.port(), "rated", token)) {
            long start = System.nanoTime();
            List<Frame> burst = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                burst.add(Frame.request(i, "echo", ("r" + i).getBytes(UTF_8)));
            }
            a.sendAll(burst);
            b.sendAll(burst);
            for (TestClient client : List.of(a, b)) {
                for (int i = 0; i < 10; i++) {
                    Frame frame = client.next();
                    assertEquals(TestClient.describe(frame), FrameType.REPLY, frame.type());
                    assertEquals("in order, none lost", i, frame.corrId());
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            assertTrue("20 requests at 5 per second after a burst of 5 take 3 s at least: " + seconds + " s",
                    seconds >= 2.9);
            assertTrue("and not much more: " + seconds + " s", seconds < 10);
        }
    }

    @Test
    public void aSendBeyondTheRateWaitsItsTurnInsteadOfBeingRefused() throws IOException {
        String token = server.addTenant("trickle", "maxRequestsPerSecond", "1");
        server.awaitTenant("trickle", token);
        try (TestClient client = TestClient.open(server.port(), "trickle", token)) {
            long start = System.nanoTime();
            client.sendAll(List.of(Frame.request(1, "echo", new byte[0]), Frame.send(2, "echo", new byte[0]),
                    Frame.request(3, "echo", new byte[0])));
            Frame first = answer(client);
            Frame third = answer(client);
            assertEquals(TestClient.describe(first), 1, first.corrId());
            assertEquals(TestClient.describe(third), 3, third.corrId());
            assertEquals(FrameType.REPLY, third.type());
            double seconds = (System.nanoTime() - start) / 1e9;
            assertTrue("the SEND took the second token, the last request the third: " + seconds + " s",
                    seconds >= 1.9);
        }
    }

    @Test
    public void aClientThatDoesNotReadIsNotReadEitherWhileAnotherKeepsWorkingAndLosesNothing() throws Exception {
        String token = server.addTenant("readers", "maxConnections", "10");
        server.awaitTenant("readers", token);
        int requests = 2_000; // 16 KiB each, 32 MiB: far more than socket buffers and the server's marks hold
        try (TestClient slow = TestClient.connect(server.port(), 4096);
             TestClient good = TestClient.open(server.port(), "readers", token)) {
            assertEquals(FrameType.WELCOME, slow.hello(1, "readers", token).type());
            CompletableFuture<Void> writing = CompletableFuture.runAsync(() -> writeRequests(slow, requests));
            for (int round = 1; round <= 200; round++) {
                ProtocolErrorsIT.assertEcho(good, round, "round " + round);
            }
            assertFalse("32 MiB of requests were read while none of their answers was", writing.isDone());

            Set<Long> answered = new HashSet<>();
            for (int i = 0; i < requests; i++) {
                Frame reply = slow.next();
                assertEquals(TestClient.describe(reply), FrameType.REPLY, reply.type());
                answered.add(reply.corrId());
            }
            writing.get(30, TimeUnit.SECONDS);
            assertEquals("every request answered once", requests, answered.size());
            ProtocolErrorsIT.assertEcho(good, 201, "after the slow client read everything");
        }
    }

    /** The next frame that answers a request (the SEND's echo, if any, comes as a push with corrId 0). */
    private static Frame answer(TestClient client) throws IOException {
        Frame frame;
        do {
            frame = client.next();
        } while (frame.corrId() == 0);
        return frame;
    }

    /** Sends {@code count} echo requests of 16 KiB (corrIds 2, 3, ...), blocking while the server does not read. */
    private static void writeRequests(TestClient client, int count) {
        try {
            for (int i = 0; i < count; i++) {
                client.send(Frame.request(2 + i, "echo", new byte[16 << 10]));
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
