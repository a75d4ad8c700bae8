package io.troupe.server.itest;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

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
import io.troupe.testsupport.Await;
import io.troupe.testsupport.TestClient;

/**
 * Every error code of protocol v1, each provoked by the input that should produce it, over a real
 * socket to the server in a real framework; and whether the connection stays open afterwards.
 *
 * <p><b>Threading:</b> runs on JUnit's thread inside the framework; one framework per class.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class ProtocolErrorsIT extends ServerTest {

    private static final String TENANT = "acme";
    private static final int MAX_FRAME_BYTES = 65_536;

    private static ServerControl server;
    private static String token;

    @Inject
    private BundleContext context;

    private TestHandlers handlers;

    @Before
    public void serverRunsWithTestHandlers() throws Exception {
        handlers = TestHandlers.register(context);
        if (server == null) {
            server = new ServerControl(context);
            server.configure(Map.of("requestTimeoutSeconds", "1", "maxFrameBytes", Integer.toString(MAX_FRAME_BYTES)));
            token = server.addTenant(TENANT);
            server.start();
        }
    }

    @After
    public void unregisterHandlers() {
        handlers.close();
    }

    @Test
    public void helloIsAnsweredWithWelcomeCarryingItsCorrIdAndASessionId() throws IOException {
        try (TestClient client = TestClient.connect(server.port())) {
            Frame welcome = client.hello(0x1234_5678_9abcL, TENANT, token);
            assertEquals(FrameType.WELCOME, welcome.type());
            assertEquals(0x1234_5678_9abcL, welcome.corrId());
            assertFalse("session id", welcome.text().isBlank());
            assertEcho(client, 2, "after welcome");
        }
    }

    @Test
    public void anyFrameBeforeHelloIsAnsweredAuthRequiredAndTheConnectionCloses() throws IOException {
        for (Frame first : List.of(Frame.ping(5, new byte[0]), Frame.request(5, "echo", new byte[1]), Frame.bye())) {
            try (TestClient client = TestClient.connect(server.port())) {
                client.send(first);
                assertErrorThenClose(client, ErrorCode.AUTH_REQUIRED, first.corrId());
            }
        }
    }

    @Test
    public void anUnknownTenantAndAWrongTokenBothGetAuthFailedAndAClose() throws IOException {
        try (TestClient client = TestClient.connect(server.port())) {
            client.send(Frame.hello(3, "nobody", token));
            Frame unknown = assertErrorThenClose(client, ErrorCode.AUTH_FAILED, 3);
            try (TestClient other = TestClient.connect(server.port())) {
                other.send(Frame.hello(3, TENANT, token + "x"));
                Frame wrong = assertErrorThenClose(other, ErrorCode.AUTH_FAILED, 3);
                assertEquals("the two cases are not told apart", unknown.text(), wrong.text());
            }
        }
    }

    @Test
    public void aSecondHelloGetsAuthAlreadyAndTheSessionGoesOn() throws IOException {
        try (TestClient client = TestClient.open(server.port(), TENANT, token)) {
            assertError(ErrorCode.AUTH_ALREADY, 9, client.hello(9, TENANT, token));
            assertEcho(client, 10, "still open");
        }
    }

    @Test
    public void aCorruptedChecksumGetsFrameCrcAndAClose() throws IOException {
        try (TestClient client = TestClient.open(server.port(), TENANT, token)) {
            client.send(RawFrames.withBadChecksum(Frame.request(4, "echo", new byte[10])));
            assertErrorThenClose(client, ErrorCode.FRAME_CRC, 0);
        }
    }

    @Test
    public void aLargeFrameSentInPiecesIsEchoedAndOneWithACorruptedChecksumGetsFrameCrc() throws IOException {
        try (TestClient client = TestClient.open(server.port(), TENANT, token)) {
            assertEcho(client, 3, "before the large frames");
            Frame large = Frame.request(5, "echo", TestClient.pattern(MAX_FRAME_BYTES - 22 - 4, 5));
            sendInPieces(client, TestClient.bytes(large), 1000);
            Frame reply = client.next();
            assertEquals(TestClient.describe(reply), FrameType.REPLY, reply.type());
            assertArrayEquals(large.content(), reply.content());
            byte[] corrupted = RawFrames.withBadChecksum(Frame.request(6, "echo", TestClient.pattern(40_000, 6)));
            sendInPieces(client, corrupted, 1000);
            assertErrorThenClose(client, ErrorCode.FRAME_CRC, 0);
        }
    }

    @Test
    public void largeAndSmallFramesPipelinedAreAnsweredInOrderWithTheirContent() throws IOException {
        try (TestClient client = TestClient.open(server.port(), TENANT, token)) {
            List<Frame> sent = new java.util.ArrayList<>();
            Random random = new Random(21);
            for (int i = 1; i <= 40; i++) {
                int size = i % 3 == 0 ? 5000 + random.nextInt(MAX_FRAME_BYTES - 5000 - 26) : random.nextInt(200);
                sent.add(Frame.request(i, "echo", TestClient.pattern(size, i)));
            }
            client.sendAll(sent);
            for (Frame request : sent) {
                Frame reply = client.next();
                assertEquals(TestClient.describe(reply), FrameType.REPLY, reply.type());
                assertEquals(request.corrId(), reply.corrId());
                assertArrayEquals("content of " + request.corrId(), request.content(), reply.content());
            }
        }
    }

    @Test
    public void aLengthAbove4096BeforeWelcomeGetsFrameTooLargeWithoutTheBodyBeingSent() throws IOException {
        try (TestClient client = TestClient.connect(server.port())) {
            client.send(RawFrames.lengthFieldOnly(4097, 10));
            assertErrorThenClose(client, ErrorCode.FRAME_TOO_LARGE, 0);
        }
        try (TestClient client = TestClient.connect(server.port())) {
            client.send(new Frame(FrameType.HELLO, 1, TENANT, new byte[4096]));
            assertErrorThenClose(client, ErrorCode.FRAME_TOO_LARGE, 0);
        }
    }

    @Test
    public void aLengthAboveMaxFrameBytesAfterWelcomeGetsFrameTooLargeWithoutTheBodyBeingSent() throws IOException {
        try (TestClient client = TestClient.open(server.port(), TENANT, token)) {
            Frame fits = Frame.request(2, "echo", new byte[MAX_FRAME_BYTES - 22 - 4]);
            client.send(fits);
            Frame reply = client.next();
            assertEquals(TestClient.describe(reply), FrameType.REPLY, reply.type());
            client.send(RawFrames.lengthFieldOnly(MAX_FRAME_BYTES + 1L, 100));
            assertErrorThenClose(client, ErrorCode.FRAME_TOO_LARGE, 0);
        }
        try (TestClient client = TestClient.open(server.port(), TENANT, token)) {
            client.send(RawFrames.lengthFieldOnly(0xFFFF_FFFFL, 0));
            assertErrorThenClose(client, ErrorCode.FRAME_TOO_LARGE, 0);
        }
    }

    @Test
    public void aStructurallyBrokenFrameGetsFrameMalformedWithItsCorrIdAndAClose() throws IOException {
        try (TestClient client = TestClient.open(server.port(), TENANT, token)) {
            client.send(RawFrames.withNameLength(Frame.request(77, "echo", new byte[3]), 200));
            assertErrorThenClose(client, ErrorCode.FRAME_MALFORMED, 77);
        }
        try (TestClient client = TestClient.open(server.port(), TENANT, token)) {
            client.send(RawFrames.withType(Frame.request(78, "echo", new byte[3]), 42));
            assertErrorThenClose(client, ErrorCode.FRAME_MALFORMED, 78);
        }
        try (TestClient client = TestClient.connect(server.port())) {
            client.send(RawFrames.lengthFieldOnly(21, 21));
            assertErrorThenClose(client, ErrorCode.FRAME_MALFORMED, 0);
        }
    }

    @Test
    public void aFrameTypeTheClientMustNotSendGetsFrameUnexpectedAndTheSessionGoesOn() throws IOException {
        try (TestClient client = TestClient.open(server.port(), TENANT, token)) {
            List<Frame> serverFrames = List.of(Frame.welcome(11, "s"), Frame.reply(12, "echo", new byte[0]),
                    Frame.error(13, ErrorCode.BAD_REQUEST, "x"), Frame.pong(14, new byte[0]));
            for (Frame frame : serverFrames) {
                client.send(frame);
                assertError(ErrorCode.FRAME_UNEXPECTED, frame.corrId(), client.next());
            }
            assertEcho(client, 15, "still open");
        }
    }

    @Test
    public void anUnsupportedVersionGetsVersionUnsupportedAndAClose() throws IOException {
        try (TestClient client = TestClient.open(server.port(), TENANT, token)) {
            client.send(RawFrames.withVersion(Frame.request(5, "echo", new byte[3]), 2));
            assertErrorThenClose(client, ErrorCode.VERSION_UNSUPPORTED, 0);
        }
    }

    @Test
    public void aRequestOrSendForANameNoHandlerServesGetsNoHandlerAndTheSessionGoesOn() throws IOException {
        try (TestClient client = TestClient.open(server.port(), TENANT, token)) {
            Frame error = client.request(21, "no.such.handler", "x");
            assertError(ErrorCode.NO_HANDLER, 21, error);
            assertTrue(error.text(), error.text().contains("no.such.handler"));
            client.send(Frame.send(22, "no.such.handler", new byte[0]));
            assertError(ErrorCode.NO_HANDLER, 22, client.next());
            assertEcho(client, 23, "still open");
        }
    }

    @Test
    public void requestsWaitingForAHandlerThatIsWithdrawnGetNoHandler() throws IOException {
        handlers.gate.close();
        try (TestClient client = TestClient.open(server.port(), TENANT, token)) {
            client.sendAll(List.of(Frame.request(24, TestHandlers.GATE, "running".getBytes(UTF_8)),
                    Frame.request(25, TestHandlers.GATE, "waiting".getBytes(UTF_8))));
            Await.until("the first request waits at the gate", () -> handlers.gate.arrived.get() == 1);
            handlers.withdraw(TestHandlers.GATE);
            handlers.gate.open();
            assertEquals("the one running finishes", "passed running", client.next().text());
            Frame error = client.next();
            assertError(ErrorCode.NO_HANDLER, 25, error);
            assertError(ErrorCode.NO_HANDLER, 26, client.request(26, TestHandlers.GATE, "later"));
        }
    }

    @Test
    public void aHandlerThatThrowsGetsHandlerFailedSayingWhat() throws IOException {
        try (TestClient client = TestClient.open(server.port(), TENANT, token)) {
            Frame error = client.request(31, TestHandlers.FAIL, "kaput");
            assertError(ErrorCode.HANDLER_FAILED, 31, error);
            assertTrue(error.text(), error.text().contains("boom: kaput"));
            assertEcho(client, 32, "still open");
        }
    }

    @Test
    public void aHandlerThatNeverRepliesGetsHandlerTimeoutAfterRequestTimeoutSeconds() throws IOException {
        try (TestClient client = TestClient.open(server.port(), TENANT, token)) {
            long start = System.nanoTime();
            Frame error = client.request(41, TestHandlers.SILENT, "hello?");
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertError(ErrorCode.HANDLER_TIMEOUT, 41, error);
            assertTrue("after about 1 s: " + millis + " ms", millis >= 900 && millis < 5_000);
        }
    }

    @Test
    public void aHandlerRejectingItsInputGetsBadRequestWithItsDetail() throws IOException {
        try (TestClient client = TestClient.open(server.port(), TENANT, token)) {
            Frame error = client.request(51, TestHandlers.REJECT, "nonsense");
            assertError(ErrorCode.BAD_REQUEST, 51, error);
            assertEquals("rejected 'nonsense'", error.text());
        }
    }

    @Test
    public void aMailboxThatStaysFullBehindTheHandlerGetsMailboxFull() throws IOException {
        handlers.gate.close();
        try (TestClient client = TestClient.open(server.port(), TENANT, token)) {
            client.send(Frame.request(61, TestHandlers.NARROW, "first".getBytes(UTF_8)));
            Await.until("the first request waits at the gate", () -> handlers.gate.arrived.get() == 1);
            client.send(Frame.request(62, TestHandlers.NARROW, "second".getBytes(UTF_8))); // fills the child
            client.send(Frame.request(63, TestHandlers.NARROW, "third".getBytes(UTF_8)));
            assertError(ErrorCode.MAILBOX_FULL, 63, client.next());
            handlers.gate.open();
            assertEquals("narrow first", client.next().text());
            assertEquals("narrow second", client.next().text());
        }
    }

    @Test
    public void repliesAreMappedByType() throws IOException {
        try (TestClient client = TestClient.open(server.port(), TENANT, token)) {
            Frame string = client.request(71, TestHandlers.TYPES, "string");
            assertEquals(FrameType.REPLY, string.type());
            assertEquals(TestHandlers.TYPES, string.name());
            assertEquals("a string", string.text());
            assertEquals("a message", client.request(72, TestHandlers.TYPES, "message").text());
            Frame integer = client.request(73, TestHandlers.TYPES, "integer");
            assertError(ErrorCode.HANDLER_FAILED, 73, integer);
            assertTrue(integer.text(), integer.text().contains("java.lang.Integer"));
        }
    }

    @Test
    public void pingIsAnsweredWithPongEchoingCorrIdAndContent() throws IOException {
        try (TestClient client = TestClient.open(server.port(), TENANT, token)) {
            client.send(Frame.ping(0xFFFF_FFFF_FFFF_FFFFL, "are you there".getBytes(UTF_8)));
            Frame pong = client.next();
            assertEquals(FrameType.PONG, pong.type());
            assertEquals(0xFFFF_FFFF_FFFF_FFFFL, pong.corrId());
            assertEquals("are you there", pong.text());
        }
    }

    @Test
    public void randomBytesFromOtherClientsNeverAffectAClientOrTheServer() throws IOException {
        Random random = new Random(20_261_130);
        try (TestClient good = TestClient.open(server.port(), TENANT, token)) {
            for (int round = 0; round < 300; round++) {
                try (TestClient bad = TestClient.connect(server.port())) {
                    if (round % 3 == 1) {
                        assertEquals(FrameType.WELCOME, bad.hello(1, TENANT, token).type());
                    }
                    byte[] garbage = new byte[1 + random.nextInt(3000)];
                    random.nextBytes(garbage);
                    if (round % 3 == 2 && garbage.length >= 4) {
                        // a plausible length, so that the checksum and the structure are checked too
                        ByteBuffer.wrap(garbage).putInt(0, Math.max(0, Math.min(garbage.length - 4, 22 + random.nextInt(64))));
                    }
                    bad.send(garbage);
                    bad.shutdownOutput();
                    for (Frame frame : bad.untilClosed()) {
                        assertTrue("round " + round + ": " + TestClient.describe(frame),
                                frame.type() == FrameType.ERROR || frame.type() == FrameType.BYE);
                    }
                }
                assertEcho(good, 1000 + round, "round " + round);
            }
        }
        try (TestClient late = TestClient.open(server.port(), TENANT, token)) {
            assertEcho(late, 1, "the server still accepts");
        }
    }

    static void assertEcho(TestClient client, long corrId, String text) throws IOException {
        Frame reply = client.request(corrId, "echo", text);
        assertEquals(TestClient.describe(reply), FrameType.REPLY, reply.type());
        assertEquals(corrId, reply.corrId());
        assertEquals("echo", reply.name());
        assertArrayEquals(text.getBytes(UTF_8), reply.content());
    }

    static void assertError(ErrorCode code, long corrId, Frame frame) {
        assertEquals(TestClient.describe(frame), FrameType.ERROR, frame.type());
        assertEquals(TestClient.describe(frame), code.code(), frame.name());
        assertEquals(TestClient.describe(frame), corrId, frame.corrId());
    }

    /** The connection gets exactly this ERROR and is then closed by the server. */
    static Frame assertErrorThenClose(TestClient client, ErrorCode code, long corrId) throws IOException {
        List<Frame> frames = client.untilClosed(Duration.ofSeconds(10));
        assertEquals("frames before the close: " + frames, 1, frames.size());
        assertError(code, corrId, frames.get(0));
        return frames.get(0);
    }

    /** Writes {@code bytes} in writes of {@code piece} bytes, each flushed, so the server reads them apart. */
    private static void sendInPieces(TestClient client, byte[] bytes, int piece) throws IOException {
        for (int at = 0; at < bytes.length; at += piece) {
            client.send(Arrays.copyOfRange(bytes, at, Math.min(bytes.length, at + piece)));
        }
    }
}
