package io.troupe.server.itest;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 * Limits that protect the server and other clients: the tenant's connection quota and request rate,
 * and the cut-off of a client that does not read its answers.
 *
 * <p><b>Threading:</b> runs on JUnit's thread inside the framework (and one writer thread in the
 * slow-consumer test); one framework per class.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class QuotasIT extends ServerTest {

    private static final int SLOW_CONSUMER_BYTES = 65_536;

    private static ServerControl server;

    @Inject
    private BundleContext context;

    @Before
    public void serverRuns() throws Exception {
        if (server == null) {
            server = new ServerControl(context);
            server.configure(Map.of("slowConsumerBytes", Integer.toString(SLOW_CONSUMER_BYTES)));
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
    public void requestsBeyondTheTenantsRateAreRefusedAcrossAllItsConnections() throws IOException {
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
            int replies = 0;
            int refused = 0;
            for (TestClient client : List.of(a, b)) {
                for (int i = 0; i < 10; i++) {
                    Frame frame = client.next();
                    if (frame.type() == FrameType.REPLY) {
                        replies++;
                    } else {
                        ProtocolErrorsIT.assertError(ErrorCode.QUOTA_RATE, frame.corrId(), frame);
                        refused++;
                    }
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            assertTrue("at most the burst of 5 plus 5 per second: " + replies + " in " + seconds + " s",
                    replies <= 5 + (int) Math.ceil(seconds * 5));
            assertTrue("replies " + replies, replies >= 5);
            assertTrue("refused " + refused, refused >= 20 - 5 - (int) Math.ceil(seconds * 5));
        }
    }

    @Test
    public void aSendBeyondTheRateIsRefusedWithItsCorrId() throws IOException {
        String token = server.addTenant("trickle", "maxRequestsPerSecond", "1");
        server.awaitTenant("trickle", token);
        try (TestClient client = TestClient.open(server.port(), "trickle", token)) {
            client.sendAll(List.of(Frame.request(1, "echo", new byte[0]), Frame.send(2, "echo", new byte[0])));
            // the refusal is written at once, the reply when the handler has run: either may come first
            Map<Long, Frame> byCorrId = new HashMap<>();
            for (int i = 0; i < 2; i++) {
                Frame frame = client.next();
                byCorrId.put(frame.corrId(), frame);
            }
            assertEquals(TestClient.describe(byCorrId.get(1L)), FrameType.REPLY, byCorrId.get(1L).type());
            ProtocolErrorsIT.assertError(ErrorCode.QUOTA_RATE, 2, byCorrId.get(2L));
        }
    }

    @Test
    public void aClientThatDoesNotReadIsCutOffWhileAnotherKeepsWorking() throws Exception {
        String token = server.addTenant("readers", "maxConnections", "10");
        server.awaitTenant("readers", token);
        try (TestClient slow = TestClient.connect(server.port(), 4096);
             TestClient good = TestClient.open(server.port(), "readers", token)) {
            assertEquals(FrameType.WELCOME, slow.hello(1, "readers", token).type());
            CompletableFuture<Long> cutOff = CompletableFuture.supplyAsync(() -> writeUntilCutOff(slow));
            int round = 0;
            while (!cutOff.isDone()) {
                ProtocolErrorsIT.assertEcho(good, ++round, "round " + round);
                if (round > 100_000) {
                    fail("the slow consumer was never cut off");
                }
            }
            long sent = cutOff.get(1, TimeUnit.SECONDS);
            assertTrue("cut off after " + sent + " bytes of requests", sent > SLOW_CONSUMER_BYTES);
            ProtocolErrorsIT.assertEcho(good, ++round, "after the cut-off");
        }
    }

    /** Sends echo requests of 16 KiB and never reads; returns the bytes written when the server cut it off. */
    private static long writeUntilCutOff(TestClient client) {
        byte[] request = TestClient.bytes(Frame.request(9, "echo", new byte[16 << 10]));
        long sent = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        try {
            while (System.nanoTime() - deadline < 0 && sent < (512L << 20)) {
                client.send(request);
                sent += request.length;
            }
        } catch (IOException e) {
            return sent; // reset or broken pipe: the server closed it
        }
        throw new AssertionError("still connected after sending " + sent + " bytes");
    }
}
