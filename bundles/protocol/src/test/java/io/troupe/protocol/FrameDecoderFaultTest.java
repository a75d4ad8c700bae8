package io.troupe.protocol;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Each decoder-level error code, produced by the input that should produce it, and their precedence. */
class FrameDecoderFaultTest {

    private static final byte[] NAME = "echo".getBytes(UTF_8);
    private static final byte[] CONTENT = {10, 20, 30, 40, 50};

    private final FrameDecoder decoder = new FrameDecoder();

    private static RawFrame valid() {
        return RawFrame.of(FrameType.REQUEST).corrId(1234).name(NAME).content(CONTENT);
    }

    @Test
    void theValidBaseFrameDecodes() {
        assertNotNull(decoder.decode(ByteBuffer.wrap(valid().bytes())));
    }

    // ---- the length field -------------------------------------------------------------------

    @Test
    void aLengthAboveTheLimitIsTooLargeFromTheFourLengthBytesAlone() {
        FrameException failure = decodeFails(RawFrame.lengthPrefix(FrameDecoder.DEFAULT_MAX_FRAME_BYTES + 1L));

        assertEquals(ErrorCode.FRAME_TOO_LARGE, failure.code());
        assertEquals(0, failure.corrId());
    }

    @Test
    void aLengthAtTheLimitIsAwaitedNotRejected() {
        assertNull(decoder.decode(ByteBuffer.wrap(RawFrame.lengthPrefix(FrameDecoder.DEFAULT_MAX_FRAME_BYTES))));
    }

    @Test
    void beforeWelcomeALengthAbove4096IsTooLargeFromTheFourLengthBytesAlone() {
        decoder.setMaxFrameBytes(FrameDecoder.PRE_AUTH_MAX_FRAME_BYTES);

        assertEquals(ErrorCode.FRAME_TOO_LARGE, decodeFails(RawFrame.lengthPrefix(4097)).code());
        assertNull(decoder.decode(ByteBuffer.wrap(RawFrame.lengthPrefix(4096))));
    }

    @Test
    void aHelloLargerThan4096BytesIsTooLargeBeforeWelcomeAndFineAfter() {
        byte[] hello = RawFrame.of(FrameType.HELLO).name("acme").content(new byte[4096]).bytes();
        FrameDecoder preAuth = new FrameDecoder(FrameDecoder.PRE_AUTH_MAX_FRAME_BYTES);

        FrameException failure = assertThrows(FrameException.class, () -> preAuth.decode(ByteBuffer.wrap(hello)));
        assertEquals(ErrorCode.FRAME_TOO_LARGE, failure.code());

        preAuth.setMaxFrameBytes(FrameDecoder.DEFAULT_MAX_FRAME_BYTES);
        assertEquals(FrameType.HELLO, preAuth.decode(ByteBuffer.wrap(hello)).type());
    }

    @ParameterizedTest
    @ValueSource(longs = {0x8000_0000L, 0xFFFF_FFFFL})
    void lengthsThatWouldBeNegativeAsSignedIntsAreTooLarge(long length) {
        decoder.setMaxFrameBytes(FrameDecoder.MAX_LENGTH);

        assertEquals(ErrorCode.FRAME_TOO_LARGE, decodeFails(RawFrame.lengthPrefix(length)).code());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 4, 17, 21})
    void aLengthBelow22IsMalformedFromTheFourLengthBytesAlone(int length) {
        FrameException failure = decodeFails(RawFrame.lengthPrefix(length));

        assertEquals(ErrorCode.FRAME_MALFORMED, failure.code());
        assertEquals(0, failure.corrId());
    }

    // ---- checksum ---------------------------------------------------------------------------

    @Test
    void aCorruptedContentByteFailsTheChecksum() {
        byte[] wire = valid().bytes();
        wire[wire.length - 6] ^= 0x01;

        FrameException failure = decodeFails(wire);

        assertEquals(ErrorCode.FRAME_CRC, failure.code());
        assertEquals(0, failure.corrId(), "a corrId under a bad checksum is not to be trusted");
    }

    @Test
    void aCorruptedCrcFieldFailsTheChecksum() {
        assertEquals(ErrorCode.FRAME_CRC, decodeFails(valid().corruptCrc().bytes()).code());
    }

    @Test
    void changedFlagsFailTheChecksumSinceItCoversThem() {
        byte[] wire = valid().bytes();
        wire[7] = 1;

        assertEquals(ErrorCode.FRAME_CRC, decodeFails(wire).code());
    }

    // ---- version ----------------------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(ints = {0, 2, 255})
    void aVersionOtherThanOneIsUnsupported(int version) {
        FrameException failure = decodeFails(valid().version(version).bytes());

        assertEquals(ErrorCode.VERSION_UNSUPPORTED, failure.code());
        assertEquals(0, failure.corrId(), "another version may put its corrId elsewhere");
    }

    // ---- structure --------------------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(ints = {0, 10, 255})
    void anUnknownTypeIsMalformedAndReportsTheCorrId(int type) {
        FrameException failure = decodeFails(valid().type(type).bytes());

        assertEquals(ErrorCode.FRAME_MALFORMED, failure.code());
        assertEquals(1234, failure.corrId());
    }

    @Test
    void aNameLenReachingPastTheFrameIsMalformed() {
        assertEquals(ErrorCode.FRAME_MALFORMED, decodeFails(valid().nameLen(0xFFFF).bytes()).code());
        assertEquals(ErrorCode.FRAME_MALFORMED, decodeFails(valid().nameLen(NAME.length + CONTENT.length + 1).bytes())
                .code());
    }

    @Test
    void aNameLenShorterThanTheNameIsMalformed() {
        assertEquals(ErrorCode.FRAME_MALFORMED, decodeFails(valid().nameLen(NAME.length - 1).bytes()).code());
    }

    @Test
    void aContentLenLargerThanTheLengthAllowsIsMalformed() {
        assertEquals(ErrorCode.FRAME_MALFORMED, decodeFails(valid().contentLen(CONTENT.length + 1).bytes()).code());
        assertEquals(ErrorCode.FRAME_MALFORMED, decodeFails(valid().contentLen(0xFFFF_FFFFL).bytes()).code());
    }

    @Test
    void aContentLenSmallerThanTheLengthAllowsIsMalformed() {
        FrameException failure = decodeFails(valid().contentLen(CONTENT.length - 1).bytes());

        assertEquals(ErrorCode.FRAME_MALFORMED, failure.code());
        assertEquals(1234, failure.corrId());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "ff",           // never valid in UTF-8
        "c0af",         // overlong encoding of '/'
        "e282",         // truncated three-byte sequence
        "eda080",       // an encoded surrogate (CESU-8)
        "f4908080",     // above U+10FFFF
        "80",           // a lone continuation byte
        "61c3"})        // 'a' then a truncated two-byte sequence
    void aNameThatIsNotValidUtf8IsMalformed(String nameHex) {
        FrameException failure = decodeFails(valid().name(RawFrame.hex(nameHex)).bytes());

        assertEquals(ErrorCode.FRAME_MALFORMED, failure.code());
        assertEquals(1234, failure.corrId());
    }

    // ---- precedence: length, checksum, version, structure -----------------------------------

    @Test
    void aTooLargeLengthWinsOverEveryOtherFault() {
        decoder.setMaxFrameBytes(FrameDecoder.MIN_LENGTH);
        byte[] wire = valid().version(9).type(0).nameLen(0xFFFF).name(RawFrame.hex("ff")).corruptCrc().bytes();

        assertEquals(ErrorCode.FRAME_TOO_LARGE, decodeFails(wire).code());
    }

    @Test
    void aLengthBelow22WinsOverEveryOtherFault() {
        byte[] wire = valid().length(21).version(9).type(0).corruptCrc().bytes();

        assertEquals(ErrorCode.FRAME_MALFORMED, decodeFails(wire).code());
    }

    @Test
    void aBadChecksumWinsOverABadVersion() {
        assertEquals(ErrorCode.FRAME_CRC, decodeFails(valid().version(2).corruptCrc().bytes()).code());
    }

    @Test
    void aBadChecksumWinsOverABadStructure() {
        byte[] wire = valid().type(10).nameLen(0xFFFF).name(RawFrame.hex("ff")).corruptCrc().bytes();

        assertEquals(ErrorCode.FRAME_CRC, decodeFails(wire).code());
    }

    @Test
    void aLengthInconsistentWithTheFieldsIsStillCheckedForItsChecksumFirst() {
        // length says 3 bytes more than nameLen + contentLen; the crc is read where length puts it
        byte[] wire = valid().length(22 + NAME.length + CONTENT.length + 3).bytes();
        byte[] padded = ByteBuffer.allocate(wire.length + 3).put(wire).array();

        assertEquals(ErrorCode.FRAME_CRC, decodeFails(padded).code());
    }

    @Test
    void aBadVersionWinsOverAnUnknownType() {
        assertEquals(ErrorCode.VERSION_UNSUPPORTED, decodeFails(valid().version(0).type(0).bytes()).code());
    }

    @Test
    void aBadVersionWinsOverInconsistentLengthsAndABadName() {
        byte[] wire = valid().version(2).contentLen(0).name(RawFrame.hex("c0af")).bytes();

        assertEquals(ErrorCode.VERSION_UNSUPPORTED, decodeFails(wire).code());
    }

    // ---- the decoder itself -----------------------------------------------------------------

    @Test
    void aFailedDecodeConsumesNothing() {
        ByteBuffer input = ByteBuffer.wrap(valid().corruptCrc().bytes());

        assertThrows(FrameException.class, () -> decoder.decode(input));

        assertEquals(0, input.position());
    }

    @Test
    void theLimitMustLeaveRoomForTheSmallestFrameAndFitInABuffer() {
        assertThrows(IllegalArgumentException.class, () -> decoder.setMaxFrameBytes(FrameDecoder.MIN_LENGTH - 1));
        assertThrows(IllegalArgumentException.class, () -> decoder.setMaxFrameBytes(FrameDecoder.MAX_LENGTH + 1));
        assertThrows(IllegalArgumentException.class, () -> new FrameDecoder(0));
        assertEquals(FrameDecoder.DEFAULT_MAX_FRAME_BYTES, new FrameDecoder().maxFrameBytes());

        decoder.setMaxFrameBytes(FrameDecoder.MIN_LENGTH);
        assertNotNull(decoder.decode(FrameEncoder.encode(Frame.bye())));
    }

    private FrameException decodeFails(byte[] wire) {
        return assertThrows(FrameException.class, () -> decoder.decode(ByteBuffer.wrap(wire)));
    }
}
