package io.troupe.protocol;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Optional;

import org.junit.jupiter.api.Test;

class FrameTest {

    private static final byte[] BYTES = {1, 2, 3};

    @Test
    void factoriesFillTypeCorrIdNameAndContentAsTheProtocolSays() {
        assertFrame(Frame.hello(1, "acme", "s3cr3t"), FrameType.HELLO, 1, "acme", "s3cr3t".getBytes(UTF_8));
        assertFrame(Frame.welcome(1, "session-7"), FrameType.WELCOME, 1, "", "session-7".getBytes(UTF_8));
        assertFrame(Frame.send("echo", BYTES), FrameType.SEND, 0, "echo", BYTES);
        assertFrame(Frame.send(5, "echo", BYTES), FrameType.SEND, 5, "echo", BYTES);
        assertFrame(Frame.request(2, "echo", BYTES), FrameType.REQUEST, 2, "echo", BYTES);
        assertFrame(Frame.reply(2, "echo", BYTES), FrameType.REPLY, 2, "echo", BYTES);
        assertFrame(Frame.error(2, ErrorCode.NO_HANDLER, "no handler 'x'"), FrameType.ERROR, 2, "no.handler",
                "no handler 'x'".getBytes(UTF_8));
        assertFrame(Frame.ping(3, BYTES), FrameType.PING, 3, "", BYTES);
        assertFrame(Frame.pong(3, BYTES), FrameType.PONG, 3, "", BYTES);
        assertFrame(Frame.bye(), FrameType.BYE, 0, "", new byte[0]);
    }

    @Test
    void aNameOf65535Utf8BytesIsAcceptedAndOneByteMoreIsNot() {
        String euros = "\u20ac".repeat(21845); // 3 bytes each: 65535
        assertEquals(65535, new Frame(FrameType.SEND, 0, euros, BYTES).name().getBytes(UTF_8).length);
        assertEquals(65535, new Frame(FrameType.SEND, 0, "a".repeat(65535), BYTES).name().length());

        assertThrows(IllegalArgumentException.class, () -> new Frame(FrameType.SEND, 0, euros + "a", BYTES));
        assertThrows(IllegalArgumentException.class, () -> new Frame(FrameType.SEND, 0, "a".repeat(65536), BYTES));
    }

    @Test
    void aNameWithAnUnpairedSurrogateIsRejectedBecauseUtf8CannotCarryIt() {
        assertThrows(IllegalArgumentException.class, () -> Frame.send("a\ud83d", BYTES));
        assertThrows(IllegalArgumentException.class, () -> Frame.send("\ude00b", BYTES));
        assertEquals("\ud83d\ude00", Frame.send("\ud83d\ude00", BYTES).name());
    }

    @Test
    void nullFieldsAreRejected() {
        assertThrows(NullPointerException.class, () -> new Frame(null, 0, "", BYTES));
        assertThrows(NullPointerException.class, () -> new Frame(FrameType.SEND, 0, null, BYTES));
        assertThrows(NullPointerException.class, () -> new Frame(FrameType.SEND, 0, "", null));
    }

    @Test
    void framesWithEqualContentBytesAreEqualWhateverTheArray() {
        Frame one = Frame.request(7, "echo", new byte[] {1, 2, 3});
        Frame same = Frame.request(7, "echo", new byte[] {1, 2, 3});

        assertEquals(one, same);
        assertEquals(one.hashCode(), same.hashCode());
        assertNotEquals(one, Frame.request(7, "echo", new byte[] {1, 2, 4}));
        assertNotEquals(one, Frame.request(8, "echo", new byte[] {1, 2, 3}));
        assertNotEquals(one, Frame.send(7, "echo", new byte[] {1, 2, 3}));
    }

    @Test
    void theErrorCodeIsReadFromTheNameOfErrorFramesOnly() {
        assertEquals(Optional.of(ErrorCode.QUOTA_RATE), Frame.error(0, ErrorCode.QUOTA_RATE, "slow down").errorCode());
        assertEquals(Optional.empty(), new Frame(FrameType.ERROR, 0, "some.future_code", BYTES).errorCode());
        assertEquals(Optional.empty(), Frame.send("frame.crc", BYTES).errorCode());
        assertEquals("slow down", Frame.error(0, ErrorCode.QUOTA_RATE, "slow down").text());
    }

    @Test
    void toStringShowsTheCorrIdUnsignedAndTheContentSizeOnly() {
        assertEquals("Frame[REQUEST corrId=18446744073709551615 name=\"echo\" content=3 bytes]",
                Frame.request(-1L, "echo", BYTES).toString());
    }

    private static void assertFrame(Frame frame, FrameType type, long corrId, String name, byte[] content) {
        assertEquals(type, frame.type());
        assertEquals(corrId, frame.corrId());
        assertEquals(name, frame.name());
        assertArrayEquals(content, frame.content());
    }
}
