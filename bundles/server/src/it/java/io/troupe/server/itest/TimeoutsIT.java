package io.troupe.server.itest;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import javax.inject.Inject;

import org.junit.After;
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
 * The auth and idle timeouts, set to one second. Waiting for "nothing happens" is done by reading
 * the socket with a bounded timeout, which fails the test if the server sends anything meanwhile.
 *
 * <p><b>Threading:</b> runs on JUnit's thread inside the framework; one framework per class.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class TimeoutsIT extends ServerTest {

    private static final String TENANT = "clock";
    private static final Duration HALF_THE_TIMEOUT = Duration.ofMillis(500);

    private static ServerControl server;
    private static String token;

    @Inject
    private BundleContext context;

    private TestHandlers handlers;

    @Before
    public void serverRunsWithOneSecondTimeouts() throws Exception {
        handlers = TestHandlers.register(context);
        if (server == null) {
            server = new ServerControl(context);
            server.configure(Map.of("idleTimeoutSeconds", "1", "authTimeoutSeconds", "1"));
            token = server.addTenant(TENANT);
            server.start();
        }
    }

    @After
    public void unregisterHandlers() {
        handlers.close();
    }

    @Test
    public void aConnectionThatSendsNoHelloIsClosedAfterTheAuthTimeout() throws IOException {
        try (TestClient client = TestClient.connect(server.port())) {
            long start = System.nanoTime();
            List<Frame> frames = client.untilClosed(Duration.ofSeconds(5));
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertEquals(frames.toString(), 1, frames.size());
            ProtocolErrorsIT.assertError(ErrorCode.AUTH_REQUIRED, 0, frames.get(0));
            assertTrue("after about 1 s: " + millis, millis >= 800 && millis < 4_000);
        }
    }

    @Test
    public void aSessionThatSendsNothingIsToldByeAndClosedAfterTheIdleTimeout() throws IOException {
        try (TestClient client = TestClient.open(server.port(), TENANT, token)) {
            long start = System.nanoTime();
            List<Frame> frames = client.untilClosed(Duration.ofSeconds(5));
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertEquals(frames.toString(), 1, frames.size());
            assertEquals(FrameType.BYE, frames.get(0).type());
            assertTrue("after about 1 s: " + millis, millis >= 800 && millis < 4_000);
        }
    }

    @Test
    public void pingsKeepASessionAlive() throws IOException {
        try (TestClient client = TestClient.open(server.port(), TENANT, token)) {
            for (int i = 0; i < 6; i++) { // three seconds: three idle timeouts
                assertEquals(Optional.empty(), client.poll(HALF_THE_TIMEOUT));
                client.send(Frame.ping(i, new byte[0]));
                assertEquals(FrameType.PONG, client.next().type());
            }
            assertEquals(List.of(FrameType.BYE), client.untilClosed(Duration.ofSeconds(5)).stream()
                    .map(Frame::type).toList());
        }
    }

    @Test
    public void aSessionWaitingForAnAnswerIsNotIdle() throws IOException {
        handlers.gate.close();
        try (TestClient client = TestClient.open(server.port(), TENANT, token)) {
            client.send(Frame.request(1, TestHandlers.GATE, "slow".getBytes(UTF_8)));
            assertEquals("no BYE while the request is in flight", Optional.empty(),
                    client.poll(Duration.ofMillis(2_500)));
            handlers.gate.open();
            assertEquals("passed slow", client.next().text());
            assertEquals(List.of(FrameType.BYE), client.untilClosed(Duration.ofSeconds(5)).stream()
                    .map(Frame::type).toList());
        }
    }
}
