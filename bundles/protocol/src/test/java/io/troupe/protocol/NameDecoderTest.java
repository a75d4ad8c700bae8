package io.troupe.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class NameDecoderTest {

    private final NameDecoder names = new NameDecoder();

    private static ByteBuffer at(int offset, byte[] bytes, boolean direct) {
        ByteBuffer buffer = direct ? ByteBuffer.allocateDirect(offset + bytes.length)
                : ByteBuffer.allocate(offset + bytes.length);
        buffer.position(offset);
        buffer.put(bytes);
        return buffer.clear();
    }

    @Test
    void aRepeatedNameIsTheSameStringWithoutDecodingAgain() throws Exception {
        byte[] echo = "echo".getBytes(StandardCharsets.UTF_8);

        String first = names.decode(at(3, echo, false), 3, echo.length);
        String second = names.decode(at(7, echo, true), 7, echo.length);

        assertEquals("echo", first);
        assertSame(first, second);
    }

    @Test
    void aNameDecodedOnceWithoutRememberingLeavesTheRememberedOne() throws Exception {
        byte[] echo = "echo".getBytes(StandardCharsets.UTF_8);
        byte[] acme = "acme".getBytes(StandardCharsets.UTF_8);

        String first = names.decode(at(0, echo, false), 0, echo.length);
        assertEquals("acme", names.decode(at(0, acme, false), 0, acme.length, false));
        assertSame(first, names.decode(at(0, echo, false), 0, echo.length), "echo is still the one remembered");
        assertNotSame(names.decode(at(0, acme, false), 0, acme.length, false),
                names.decode(at(0, acme, false), 0, acme.length, false), "acme was never remembered");
    }

    @Test
    void aDifferentNameOfTheSameLengthIsDecodedAfresh() throws Exception {
        byte[] echo = "echo".getBytes(StandardCharsets.UTF_8);
        byte[] ecko = "ecko".getBytes(StandardCharsets.UTF_8);

        String first = names.decode(at(0, echo, false), 0, 4);
        String second = names.decode(at(0, ecko, false), 0, 4);

        assertEquals("ecko", second);
        assertNotSame(first, second);
    }

    @Test
    void nonAsciiNamesAreDecodedAsUtf8() throws Exception {
        byte[] name = "grüße.😀".getBytes(StandardCharsets.UTF_8);

        assertEquals("grüße.😀", names.decode(at(2, name, true), 2, name.length));
        assertEquals("grüße.😀", names.decode(at(2, name, false), 2, name.length));
    }

    @Test
    void invalidUtf8IsRefusedEvenAfterAValidName() throws Exception {
        names.decode(at(0, new byte[] {'a', 'b'}, false), 0, 2);

        assertThrows(CharacterCodingException.class,
                () -> names.decode(at(0, new byte[] {(byte) 0xC3, (byte) 0x28}, false), 0, 2));
    }

    @Test
    void theEmptyNameIsEmpty() throws Exception {
        assertEquals("", names.decode(ByteBuffer.allocate(0), 0, 0));
    }
}
