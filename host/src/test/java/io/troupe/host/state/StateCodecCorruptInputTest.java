package io.troupe.host.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/** Bytes that are not a state this version wrote fail with the actor, the byte, the path and the reason. */
class StateCodecCorruptInputTest {

    private static final String ACTOR = "handler:counter.add@acme";
    private final StateCodec codec = new StateCodec();

    /** A header of version 1, then {@code body}. */
    private static byte[] state(int... body) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.write('T');
        bytes.write('S');
        bytes.write(1);
        for (int b : body) {
            bytes.write(b);
        }
        return bytes.toByteArray();
    }

    /** An enum value of {@code type} and {@code constant}, whatever they are. */
    private static byte[] enumState(String type, String constant) {
        StateBuffer out = new StateBuffer(16);
        out.writeByte('T');
        out.writeByte('S');
        out.writeByte(1);
        out.writeByte(StateFormat.ENUM);
        out.writeString(type);
        out.writeString(constant);
        return out.toByteArray();
    }

    private String unreadable(byte[] bytes) {
        return assertThrows(UnreadableStateException.class, () -> codec.decode(bytes, ACTOR)).getMessage();
    }

    @Test
    void aNewerVersionIsRefusedNeverGuessedAt() {
        byte[] bytes = codec.encode(5L, ACTOR);
        bytes[2] = 2;
        assertEquals("actor handler:counter.add@acme: stored state is in state format version 2, newer than this"
                + " Troupe reads (up to 1): run a Troupe that reads it, or restore a backup this version wrote",
                unreadable(bytes));
        bytes[2] = (byte) 0xFF;
        assertTrue(unreadable(bytes).contains("version 255"));
        bytes[2] = 0;
        assertEquals("actor handler:counter.add@acme: stored state has version 0, which no Troupe writes",
                unreadable(bytes));
    }

    @Test
    void bytesWithoutTheMagicOrTheHeaderAreNotAState() {
        assertEquals("actor handler:counter.add@acme: stored state is not in the state format: it starts with"
                + " 0xac 0xed, not 'T' 'S'", unreadable(new byte[] {(byte) 0xAC, (byte) 0xED, 0, 5}));
        assertEquals("actor handler:counter.add@acme: stored state of 0 bytes is truncated: it has no room for"
                + " the 3-byte header", unreadable(new byte[0]));
        assertTrue(unreadable(new byte[] {'T', 'S'}).contains("stored state of 2 bytes is truncated"));
    }

    @Test
    void anUnknownTagIsNamedWithItsByteAndPath() {
        assertEquals("actor handler:counter.add@acme: stored state (4 bytes) cannot be decoded: unknown tag 0x7f"
                + " at byte 3 ($)", unreadable(state(0x7F)));
        // a map {"totals": [1, <0x7f>]}
        assertEquals("actor handler:counter.add@acme: stored state (18 bytes) cannot be decoded: unknown tag 0x7f"
                + " at byte 17 ($.totals[1])", unreadable(state(0x22, 1, 0x0A, 6, 't', 'o', 't', 'a', 'l', 's',
                0x20, 2, 0x05, 2, 0x7F)));
    }

    @Test
    void aMissingValueAndTrailingBytesAreReported() {
        assertEquals("actor handler:counter.add@acme: stored state (3 bytes) cannot be decoded: truncated: a byte"
                + " needs 1 bytes, 0 remain at byte 3 ($)", unreadable(state()));
        assertEquals("actor handler:counter.add@acme: stored state (6 bytes) cannot be decoded: 2 bytes follow the"
                + " end of the state at byte 4 ($)", unreadable(state(0x00, 0x00, 0x01)));
        assertTrue(unreadable(state(0x08, 1, 2, 3)).contains("truncated: an 8-byte number needs 8 bytes,"
                + " 3 remain at byte 4"));
    }

    @Test
    void aCountBeyondTheBytesLeftFailsBeforeAllocating() {
        // a list announcing 2^31-1 elements, and a long[] as long
        assertTrue(unreadable(state(0x20, 0xFF, 0xFF, 0xFF, 0xFF, 0x07, 0x00)).contains(
                "a list of 2147483647 items needs at least 2147483647 bytes, only 1 remain at byte 4"));
        assertTrue(unreadable(state(0x16, 0xFF, 0xFF, 0xFF, 0xFF, 0x07)).contains("a double[]"));
        assertTrue(unreadable(state(0x0A, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F)).contains(
                "a string of 4294967295 items"));
    }

    @Test
    void varintsThatOverflowAreReported() {
        assertTrue(unreadable(state(0x05, 0xFF, 0xFF, 0xFF, 0xFF, 0x1F)).contains(
                "a varint does not fit in 32 bits at byte 4"));
        assertTrue(unreadable(state(0x05, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01)).contains(
                "a 32-bit varint runs past 5 bytes"));
        assertTrue(unreadable(state(0x06, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02))
                .contains("a varint does not fit in 64 bits"));
    }

    @Test
    void valuesOutOfTheirTypesRangeAreReported() {
        assertTrue(unreadable(state(0x04, 0x80, 0x80, 0x04)).contains("a Short of 32768 is out of range"));
        assertTrue(unreadable(state(0x09, 0x80, 0x80, 0x04)).contains("a Character of 65536 is out of range"));
        assertTrue(unreadable(state(0x11, 2, 1, 2)).contains("a boolean of 2 at index 1 of a boolean[]"));
        assertTrue(unreadable(state(0x30, 0, 0x80, 0x94, 0xEB, 0xDC, 0x03)).contains(
                "nanoseconds of 1000000000 are out of range"));
        assertTrue(unreadable(state(0x30, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01, 0))
                .contains("an Instant of 9223372036854775807 s is out of range"));
        assertTrue(unreadable(state(0x0B, 0)).contains("a BigInteger of no bytes"));
        assertTrue(unreadable(state(0x24, 0x00)).contains("an Optional of null at byte 3"));
    }

    @Test
    void malformedUtf8IsReportedNotReplaced() {
        // an overlong '/', a cut-short 3-byte sequence, a lone continuation byte, a code point above U+10FFFF
        assertTrue(unreadable(state(0x0A, 2, 0xC0, 0xAF)).contains("malformed UTF-8 in a string: byte 0xc0"));
        assertTrue(unreadable(state(0x0A, 2, 0xE2, 0x82)).contains("cut short or invalid"));
        assertTrue(unreadable(state(0x0A, 1, 0x80)).contains("malformed UTF-8"));
        assertTrue(unreadable(state(0x0A, 4, 0xF4, 0x90, 0x80, 0x80)).contains("cut short or invalid"));
        assertTrue(unreadable(state(0x0A, 3, 0xE0, 0x80, 0x80)).contains("cut short or invalid"));
    }

    @Test
    void onlyJavaEnumsAndStorableArrayTypesAreEverLookedUp() {
        assertTrue(unreadable(enumState("javax.util.concurrent.TimeUnit", "DAYS")).contains(
                "an enum of javax.util.concurrent.TimeUnit, which is not an enum of java.*"));
        assertTrue(unreadable(enumState("com.acme.Colour", "RED")).contains("an enum of com.acme.Colour"));
        byte[] missing = codec.encode(TimeUnit.DAYS, ACTOR);
        missing[missing.length - 1] = 'Z';
        assertTrue(unreadable(missing).contains("the enum java.util.concurrent.TimeUnit has no constant DAYZ"));
        assertTrue(unreadable(state(0x33, 16, 'j', 'a', 'v', 'a', '.', 'l', 'a', 'n', 'g', '.', 'S', 't', 'r',
                'i', 'n', 'g', 1, 'x')).contains("an enum of java.lang.String, which is not an enum of java.*"));
        assertTrue(unreadable(state(0x19, 13, 'c', 'o', 'm', '.', 'a', 'c', 'm', 'e', '.', 'T', 'o', 't', 'a', 0))
                .contains("an array of com.acme.Tota, which is not a storable component type"));
        assertTrue(unreadable(state(0x19, 2, '[', 'V', 0)).contains("an array of [V"));
        assertTrue(unreadable(state(0x19, 3, 'i', 'n', 't', 0)).contains("an array of int"));
    }

    @Test
    void anElementThatDoesNotFitItsArrayIsReported() {
        byte[] bytes = codec.encode(new String[] {"a", "b"}, ACTOR);
        bytes[bytes.length - 3] = 0x05;
        bytes[bytes.length - 2] = 0x02;
        bytes[bytes.length - 1] = 0x00;
        assertTrue(unreadable(bytes).contains("a java.lang.Integer in an array of java.lang.String"),
                unreadable(bytes));
    }

    @Test
    void duplicatesInASetOrMapAreReportedRatherThanDropped() {
        assertTrue(unreadable(state(0x21, 2, 0x05, 2, 0x05, 2)).contains(
                "an element equal to an earlier one of its set"));
        assertTrue(unreadable(state(0x22, 2, 0x05, 2, 0x00, 0x05, 2, 0x00)).contains(
                "a key equal to an earlier one of its map"));
    }

    @Test
    void nestingDeeperThan512LevelsIsRefusedOnRead() {
        int[] body = new int[StateFormat.MAX_DEPTH * 2 + 3];
        for (int i = 0; i + 1 < body.length; i += 2) {
            body[i] = 0x20;
            body[i + 1] = 1;
        }
        assertTrue(unreadable(state(body)).contains("values nested more than 512 levels deep"));
        assertEquals(List.of(List.of(1)), codec.decode(state(0x20, 1, 0x20, 1, 0x05, 2), ACTOR));
    }
}
