package io.troupe.host.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Unit tests of the JSON string escaping: the exact bytes for each kind of character, and every output
 * read back by a real JSON parser (Jackson) as strict UTF-8. Single-threaded.
 */
class JsonStringTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void printableAsciiIsWrittenAsItIsBetweenQuotes() {
        assertEquals("\"io.troupe.host - ready {x} / 100%\"", json("io.troupe.host - ready {x} / 100%"));
        assertEquals("\"\"", json(""));
    }

    @Test
    void quotesAndBackslashesAreEscapedWithABackslash() throws IOException {
        String text = "say \"hi\" in C:\\temp\\";

        assertEquals("\"say \\\"hi\\\" in C:\\\\temp\\\\\"", json(text));
        assertEquals(text, parsed(text));
    }

    @Test
    void everyControlCharacterIsEscapedWithTheShortFormWhereJsonHasOneAndReadsBackExactly() throws IOException {
        for (char c = 0; c < 0x20; c++) {
            String expected = switch (c) {
                case '\b' -> "\\b";
                case '\t' -> "\\t";
                case '\n' -> "\\n";
                case '\f' -> "\\f";
                case '\r' -> "\\r";
                default -> String.format("\\u%04x", (int) c);
            };
            String text = "a" + c + "b";

            assertEquals("\"a" + expected + "b\"", json(text), "U+" + Integer.toHexString(c));
            assertEquals(text, parsed(text));
        }
    }

    @Test
    void delAndTheUnicodeLineSeparatorsAreValidJsonAndWrittenUnescaped() throws IOException {
        String text = "del\u007f ls\u2028 ps\u2029";

        assertArrayEquals(("\"" + text + "\"").getBytes(StandardCharsets.UTF_8), bytes(text));
        assertEquals(text, parsed(text));
    }

    @Test
    void twoAndThreeByteCharactersAreWrittenAsTheirUtf8() throws IOException {
        String text = "grüße 20€ 日本";

        assertArrayEquals(("\"" + text + "\"").getBytes(StandardCharsets.UTF_8), bytes(text));
        assertEquals(text, parsed(text));
    }

    @Test
    void aCharacterOutsideTheBmpIsTheFourUtf8BytesOfItsCodePoint() throws IOException {
        String text = "ok \uD83D\uDE00"; // U+1F600

        assertArrayEquals(new byte[] {'"', 'o', 'k', ' ', (byte) 0xF0, (byte) 0x9F, (byte) 0x98, (byte) 0x80, '"'},
                bytes(text));
        assertEquals(text, parsed(text));
    }

    @Test
    void aLoneSurrogateBecomesTheReplacementCharacterAndTheOutputStaysValidUtf8() throws IOException {
        String[][] cases = {
            {"a\uD800b", "a\uFFFDb"},
            {"a\uDC00b", "a\uFFFDb"},
            {"ends high \uD83D", "ends high \uFFFD"},
            {"\uDE00\uD83D reversed pair", "\uFFFD\uFFFD reversed pair"},
            {"\uD83D\uD83D\uDE00", "\uFFFD\uD83D\uDE00"},
        };
        for (String[] c : cases) {
            assertEquals(c[1], strictUtf8(bytes(c[0])).substring(1, c[1].length() + 1), c[0]);
            assertEquals(c[1], parsed(c[0]));
        }
    }

    @Test
    void utf8NamesAreCopiedAndTheirAsciiEscaped() throws IOException {
        byte[] name = "worker \"7\" \\ ü\n".getBytes(StandardCharsets.UTF_8);
        RecordBytes out = new RecordBytes(8);

        JsonString.appendUtf8(out, name);

        String written = strictUtf8(out.toArray());
        assertEquals("\"worker \\\"7\\\" \\\\ ü\\n\"", written);
        assertEquals("worker \"7\" \\ ü\n", JSON.readTree(written).asText());
    }

    @Test
    void randomTextOfAnyCharactersReadsBackAsItselfWithLoneSurrogatesReplaced() throws IOException {
        Random random = new Random(18);
        for (int round = 0; round < 2000; round++) {
            char[] chars = new char[random.nextInt(40)];
            for (int i = 0; i < chars.length; i++) {
                chars[i] = switch (random.nextInt(5)) {
                    case 0 -> (char) random.nextInt(0x20);
                    case 1 -> (char) (0xD800 + random.nextInt(0x800)); // surrogates, paired or not
                    case 2 -> "\"\\/".charAt(random.nextInt(3));
                    case 3 -> (char) (0x20 + random.nextInt(0x60));
                    default -> (char) random.nextInt(0x10000);
                };
            }
            String text = new String(chars);

            assertEquals(withLoneSurrogatesReplaced(text), parsed(text), () -> "round with " + escapedJava(text));
        }
    }

    private static String json(String text) {
        return strictUtf8(bytes(text));
    }

    private static byte[] bytes(String text) {
        RecordBytes out = new RecordBytes(8);
        JsonString.append(out, text);
        return out.toArray();
    }

    /** The JSON string written for {@code text}, read by Jackson from strictly decoded UTF-8. */
    private static String parsed(String text) throws IOException {
        JsonNode node = JSON.readTree(strictUtf8(bytes(text)));
        return node.textValue();
    }

    private static String strictUtf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new AssertionError("not valid UTF-8: " + e, e);
        }
    }

    private static String withLoneSurrogatesReplaced(String text) {
        StringBuilder expected = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                expected.append(c).append(text.charAt(++i));
            } else {
                expected.append(Character.isSurrogate(c) ? '\uFFFD' : c);
            }
        }
        return expected.toString();
    }

    private static String escapedJava(String text) {
        StringBuilder out = new StringBuilder();
        text.chars().forEach(c -> out.append(String.format("\\u%04x", c)));
        return out.toString();
    }
}
