package io.troupe.server.itest;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;

import javax.inject.Inject;

import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.BundleContext;

import io.troupe.api.ActorInfo;
import io.troupe.api.ActorRef;
import io.troupe.api.DeadLetter;
import io.troupe.api.TroupeRuntime;
import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameType;
import io.troupe.testsupport.Await;
import io.troupe.testsupport.TestClient;

/**
 * A session's life over a real socket: ordering of pipelined frames, pushes through the session's
 * actor, backpressure from a full mailbox to the socket, and BYE from the client.
 *
 * <p><b>Threading:</b> runs on JUnit's thread inside the framework; one framework per class.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class SessionFlowIT extends ServerTest {

    private static final String TENANT = "flow";

    private static ServerControl server;
    private static String token;

    @Inject
    private BundleContext context;

    @Inject
    private TroupeRuntime runtime;

    private TestHandlers handlers;
    private final Queue<DeadLetter> deadLetters = new ConcurrentLinkedQueue<>();
    private AutoCloseable deadLetterSubscription;

    @Before
    public void serverRunsWithTestHandlers() throws Exception {
        handlers = TestHandlers.register(context);
        if (server == null) {
            server = new ServerControl(context);
            server.configure(Map.of());
            token = server.addTenant(TENANT);
            server.start();
        }
        deadLetterSubscription = runtime.subscribeDeadLetters(deadLetters::add);
    }

    @After
    public void unregisterHandlers() throws Exception {
        deadLetterSubscription.close();
        handlers.close();
    }

    @Test
    public void tenThousandPipelinedFramesReachTheirHandlerInOrderAndAreAnsweredInOrder() throws IOException {
        int count = 10_000;
        List<Frame> frames = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            // every third frame one-way: SENDs and REQUESTs share one order
            frames.add(i % 3 == 2
                    ? Frame.send(0, TestHandlers.ORDER, ("pipelined:" + i + ":quiet").getBytes(UTF_8))
                    : Frame.request(i, TestHandlers.ORDER, ("pipelined:" + i).getBytes(UTF_8)));
        }
        try (TestClient client = TestClient.open(server.port(), TENANT, token)) {
            client.sendAll(frames);
            for (int i = 0; i < count; i++) {
                if (i % 3 == 2) {
                    continue;
                }
                Frame reply = client.next();
                assertEquals(TestClient.describe(reply), FrameType.REPLY, reply.type());
                assertEquals(i, reply.corrId());
                assertEquals("ok " + i, reply.text());
            }
            assertEquals(Optional.empty(), client.poll(Duration.ofMillis(50)));
        }
    }

    @Test
    public void aHandlerPushesToTheClientThroughTheSessionActorWhichStopsWithTheConnection() throws IOException {
        ActorRef client;
        try (TestClient connection = TestClient.connect(server.port())) {
            Frame welcome = connection.hello(1, TENANT, token);
            String actorName = "session-" + welcome.text();
            assertTrue("a session that has sent nothing holds no actor: " + actorNames(),
                    runtime.actors().stream().noneMatch(actor -> actor.name().equals(actorName)));

            connection.send(Frame.request(2, TestHandlers.PUSH, "3".getBytes(UTF_8)));
            Set<String> seen = new HashSet<>();
            for (int i = 0; i < 4; i++) {
                Frame frame = connection.next();
                if (frame.type() == FrameType.SEND) {
                    assertEquals(0, frame.corrId());
                    assertEquals(TestHandlers.PUSHED, frame.name());
                    seen.add(frame.text());
                } else {
                    assertEquals(TestClient.describe(frame), FrameType.REPLY, frame.type());
                    assertEquals(2, frame.corrId());
                    seen.add(frame.text());
                }
            }
            assertEquals(Set.of("push 0", "push 1", "push 2", "pushed 3"), seen);
            assertTrue("the session is an actor in the tree once it sent a request: " + actorNames(),
                    runtime.actors().stream().anyMatch(actor -> actor.name().equals(actorName)));
            client = handlers.lastClient.get();
            assertEquals(actorName, client.name());
            assertFalse(client.isStopped());
        }
        Await.until("the session actor stops with its connection", client::isStopped);
        Await.until("the session actor leaves the tree",
                () -> runtime.actors().stream().noneMatch(actor -> actor.id() == client.id()),
                this::actorNames);
    }

    @Test
    public void aFullMailboxStopsReadingFromTheSocketUntilItDrains() throws IOException {
        handlers.gate.close();
        int sends = 6_000;
        List<Frame> frames = new ArrayList<>();
        for (int i = 0; i < sends; i++) {
            frames.add(Frame.send(0, TestHandlers.GATE, ("quiet " + i).getBytes(UTF_8)));
        }
        frames.add(Frame.request(1, "echo", "behind".getBytes(UTF_8)));
        frames.add(Frame.ping(2, new byte[0]));
        try (TestClient client = TestClient.open(server.port(), TENANT, token)) {
            client.sendAll(frames);
            Await.until("the handler's mailbox reaches its high-water mark (half of 10 000)",
                    () -> gateMailboxDepth() >= 5_000, () -> "depth " + gateMailboxDepth());
            assertEquals("nothing behind the held-back frame is read", Optional.empty(),
                    client.poll(Duration.ofMillis(300)));
            assertEquals("the session adds nothing while the mailbox is full", 5_000, gateMailboxDepth());

            handlers.gate.open();
            Set<FrameType> answers = new HashSet<>();
            answers.add(client.next().type());
            answers.add(client.next().type());
            assertEquals(Set.of(FrameType.REPLY, FrameType.PONG), answers);
            Await.until("every SEND was handled", () -> handlers.passed.get() == sends,
                    () -> handlers.passed.get() + " of " + sends);
        }
        assertTrue("no message was dropped: " + deadLetters, deadLetters.stream()
                .noneMatch(letter -> letter.reason().contains("mailbox full")));
    }

    @Test
    public void byeFromTheClientAnswersTheRequestsReceivedThenSaysByeAndCloses() throws IOException {
        handlers.gate.close();
        try (TestClient client = TestClient.open(server.port(), TENANT, token)) {
            client.sendAll(List.of(Frame.request(1, TestHandlers.GATE, "one".getBytes(UTF_8)),
                    Frame.request(2, TestHandlers.GATE, "two".getBytes(UTF_8)),
                    Frame.bye(),
                    Frame.request(3, "echo", "after bye".getBytes(UTF_8))));
            Await.until("the first request waits at the gate", () -> handlers.gate.arrived.get() >= 1);
            assertEquals("nothing is answered while requests are in flight", Optional.empty(),
                    client.poll(Duration.ofMillis(200)));
            handlers.gate.open();
            List<Frame> frames = client.untilClosed();
            assertEquals(frames.toString(), 3, frames.size());
            assertEquals("passed one", frames.get(0).text());
            assertEquals("passed two", frames.get(1).text());
            assertEquals(FrameType.BYE, frames.get(2).type());
        }
    }

    @Test
    public void aClientThatHalfClosesIsAnsweredThenClosed() throws IOException {
        try (TestClient client = TestClient.open(server.port(), TENANT, token)) {
            client.send(Frame.request(1, "echo", "last words".getBytes(UTF_8)));
            client.shutdownOutput();
            List<Frame> frames = client.untilClosed();
            assertEquals(frames.toString(), 2, frames.size());
            assertEquals("last words", frames.get(0).text());
            assertEquals(FrameType.BYE, frames.get(1).type());
        }
    }

    private int gateMailboxDepth() {
        return runtime.actors().stream()
                .filter(actor -> actor.name().equals("handler:" + TestHandlers.GATE + "@" + TENANT))
                .mapToInt(ActorInfo::mailboxDepth)
                .findFirst()
                .orElse(-1);
    }

    private String actorNames() {
        return runtime.actors().stream().map(ActorInfo::name).collect(Collectors.joining(", "));
    }
}
