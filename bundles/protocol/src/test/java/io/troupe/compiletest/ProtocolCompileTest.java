package io.troupe.compiletest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.troupe.protocol.ErrorCode;
import io.troupe.protocol.Frame;
import io.troupe.protocol.FrameDecoder;
import io.troupe.protocol.FrameEncoder;
import io.troupe.protocol.FrameException;
import io.troupe.protocol.FrameType;
import io.troupe.protocol.Redirect;

/**
 * Compile-only test of the exported package {@code io.troupe.protocol} (1.0.0), after Pekko's
 * {@code ActorCompile}: every public constructor, factory, method and constant of the codec is used with
 * its declared types, from outside the package, as the server bundle and the client library use them.
 *
 * <p>Its value is that it compiles: a change that breaks a user's source fails the build here, even where
 * no behaviour test notices. bnd's baseline check (see {@code baseline/README.md}) guards the binary API
 * against the last release; this class guards the source. None of the methods below is ever called: the
 * single test only lets the runner count the class. When the package gains a public signature, add a use
 * of it here.
 *
 * <p><b>Threading:</b> nothing here runs.
 */
class ProtocolCompileTest {

    @Test
    void compilesAgainstEveryPublicSignatureOfTheWireProtocol() {
        // Nothing to run: the class compiled. This names the package it covers, for the report.
        assertEquals("io.troupe.protocol", Frame.class.getPackageName());
    }

    static void useFrames(byte[] bytes) {
        int version = Frame.VERSION;
        int maxName = Frame.MAX_NAME_BYTES;
        Frame frame = new Frame(FrameType.REQUEST, 7L, "echo", bytes);
        Frame[] factories = {
            Frame.hello(1L, "acme", "token"), Frame.welcome(1L, "session"), Frame.send("chat", bytes),
            Frame.send(2L, "chat", bytes), Frame.request(3L, "echo", bytes), Frame.reply(3L, "echo", bytes),
            Frame.error(3L, ErrorCode.NO_HANDLER, "detail"), Frame.ping(4L, bytes), Frame.pong(4L, bytes),
            Frame.bye()
        };
        FrameType type = frame.type();
        long corrId = frame.corrId();
        String name = frame.name();
        byte[] content = frame.content();
        String text = frame.text();
        Optional<ErrorCode> code = frame.errorCode();
        use(version, maxName, factories, type, corrId, name, content, text, code);
    }

    static void useTypesAndCodes() {
        FrameType[] types = {
            FrameType.HELLO, FrameType.WELCOME, FrameType.SEND, FrameType.REQUEST, FrameType.REPLY,
            FrameType.ERROR, FrameType.PING, FrameType.PONG, FrameType.BYE
        };
        FrameType type = FrameType.valueOf("PING");
        Optional<FrameType> byCode = FrameType.fromCode(7);
        use(types, FrameType.values(), type.code(), type.isSentByClient(), type.isSentByServer(), byCode);

        ErrorCode[] codes = {
            ErrorCode.AUTH_REQUIRED, ErrorCode.AUTH_FAILED, ErrorCode.AUTH_ALREADY, ErrorCode.FRAME_CRC,
            ErrorCode.FRAME_TOO_LARGE, ErrorCode.FRAME_MALFORMED, ErrorCode.FRAME_UNEXPECTED,
            ErrorCode.VERSION_UNSUPPORTED, ErrorCode.NO_HANDLER, ErrorCode.QUOTA_CONNECTIONS, ErrorCode.QUOTA_RATE,
            ErrorCode.MAILBOX_FULL, ErrorCode.HANDLER_FAILED, ErrorCode.HANDLER_TIMEOUT, ErrorCode.BAD_REQUEST,
            ErrorCode.SERVER_SHUTDOWN, ErrorCode.TENANT_LIMIT_ACTORS
        };
        ErrorCode code = ErrorCode.valueOf("FRAME_CRC");
        String wire = code.code();
        boolean closes = code.closesConnection();
        Optional<ErrorCode> byWire = ErrorCode.fromCode(wire);
        use(codes, ErrorCode.values(), closes, byWire);
    }

    static void useCodec(Frame frame, ByteBuffer input, ByteBuffer output) {
        int lengthField = FrameDecoder.LENGTH_FIELD_BYTES;
        int minLength = FrameDecoder.MIN_LENGTH;
        int defaultMax = FrameDecoder.DEFAULT_MAX_FRAME_BYTES;
        int preAuthMax = FrameDecoder.PRE_AUTH_MAX_FRAME_BYTES;
        int maxLength = FrameDecoder.MAX_LENGTH;
        FrameDecoder decoder = new FrameDecoder();
        FrameDecoder bounded = new FrameDecoder(preAuthMax);
        bounded.setMaxFrameBytes(defaultMax);
        int max = bounded.maxFrameBytes();
        long length = FrameDecoder.peekLength(input);
        try {
            Frame decoded = decoder.decode(input);
            use(decoded);
        } catch (FrameException e) {
            ErrorCode code = e.code();
            String detail = e.detail();
            long corrId = e.corrId();
            Frame errorFrame = e.toErrorFrame();
            use(code, detail, corrId, errorFrame);
        }
        int size = FrameEncoder.encodedSize(frame);
        ByteBuffer encoded = FrameEncoder.encode(frame);
        FrameEncoder.encode(frame, output);
        use(lengthField, minLength, maxLength, max, length, size, encoded);
    }

    static void useExceptions() {
        RuntimeException withCorrId = new FrameException(ErrorCode.FRAME_CRC, "checksum", 9L);
        RuntimeException withoutCorrId = new FrameException(ErrorCode.FRAME_MALFORMED, "short");
        use(withCorrId, withoutCorrId);
    }

    private static void use(Object... values) {
        // a sink, so that every value above is used
    }

    static void useRedirect() {
        Frame moved = Redirect.error(1L, "10.0.0.2:7878");
        Frame bye = Redirect.bye("");
        String prefix = Redirect.BYE_PREFIX;
        Optional<String> target = Redirect.target(moved);
        ErrorCode code = ErrorCode.TENANT_MOVED;
        assertEquals(prefix + target + bye + code, prefix + target + bye + code);
    }
}
