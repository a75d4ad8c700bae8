package io.troupe.server.session;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.Test;

import io.troupe.api.Failure;
import io.troupe.api.Message;
import io.troupe.api.TroupeException;
import io.troupe.protocol.ErrorCode;
import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameType;

class RepliesTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @Test
    void bytesStringsAndMessagesBecomeTheReplysContent() {
        assertReply(new byte[] {1, 2, 3}, Replies.reply(7, "echo", new byte[] {1, 2, 3}));
        assertReply("héllo".getBytes(UTF_8), Replies.reply(7, "echo", "héllo"));
        assertReply(new byte[] {9}, Replies.reply(7, "echo", new Message("other", new byte[] {9})));
    }

    @Test
    void aFailureReplyIsForwardedWithItsCodeAndDetail() {
        assertError(ErrorCode.BAD_REQUEST.code(), "no digits", Replies.reply(7, "calc", Failure.badRequest("no digits")));
        assertError("bad.request", "no digits",
                Replies.failure(7, "calc", new TroupeException("bad.request", "no digits"), TIMEOUT));
    }

    @Test
    void theRuntimesFailuresKeepTheirCodes() {
        assertError("no.handler", "gone", failure(new TroupeException("no.handler", "gone")));
        assertError("mailbox.full", "full", failure(new TroupeException("mailbox.full", "full")));
        assertError("handler.failed", "boom", failure(new TroupeException("handler.failed", "boom")));
        assertError("server.shutdown", "bye", failure(new TroupeException("server.shutdown", "bye")));
        assertError("actor.stopped", "x stopped", failure(new TroupeException("actor.stopped", "x stopped")));
    }

    @Test
    void aTimeoutBecomesHandlerTimeoutNamingTheHandler() {
        Frame frame = Replies.failure(7, "slow", new CompletionException(new TimeoutException("late")),
                Duration.ofSeconds(1));
        assertError("handler.timeout", "no reply from handler 'slow' within 1 s", frame);
    }

    @Test
    void codesThatWouldMisleadTheClientBecomeHandlerFailed() {
        Frame closing = failure(new TroupeException("auth.failed", "nope"));
        assertEquals("handler.failed", closing.name());
        assertTrue(closing.text().contains("auth.failed"), closing.text());
        assertEquals("handler.failed", failure(new TroupeException("Not A Code!", "x")).name());
        assertEquals("counter.overflow", failure(new TroupeException("counter.overflow", "too big")).name(),
                "well-formed codes of handlers pass through");
    }

    @Test
    void anyOtherReplyOrFailureBecomesHandlerFailedNamingIt() {
        Frame integer = Replies.reply(7, "calc", 42);
        assertEquals("handler.failed", integer.name());
        assertTrue(integer.text().contains("java.lang.Integer"), integer.text());
        assertTrue(Replies.reply(7, "calc", null).text().contains("null"));
        Frame thrown = failure(new IllegalStateException("broken"));
        assertEquals("handler.failed", thrown.name());
        assertTrue(thrown.text().contains("broken"), thrown.text());
    }

    @Test
    void longDetailsAreCut() {
        Frame frame = Replies.error(1, ErrorCode.HANDLER_FAILED, "x".repeat(100_000));
        assertEquals(Replies.MAX_DETAIL_CHARS + 3, frame.text().length());
    }

    private static Frame failure(Throwable failure) {
        return Replies.failure(7, "h", failure, TIMEOUT);
    }

    private static void assertReply(byte[] content, Frame frame) {
        assertEquals(FrameType.REPLY, frame.type());
        assertEquals(7, frame.corrId());
        assertEquals("echo", frame.name());
        assertArrayEquals(content, frame.content());
    }

    private static void assertError(String code, String detail, Frame frame) {
        assertEquals(FrameType.ERROR, frame.type());
        assertEquals(7, frame.corrId());
        assertEquals(code, frame.name());
        assertEquals(detail, frame.text());
    }
}
