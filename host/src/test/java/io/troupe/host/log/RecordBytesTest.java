package io.troupe.host.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@link RecordBytes} and its {@link Utf8Memo}; single-threaded. */
class RecordBytesTest {

    @Test
    void appendsTextAsUtf8WhetherAsciiOrNotAndWhateverItsLength() {
        RecordBytes out = new RecordBytes(8);
        String ascii = "a".repeat(1000);
        String mixed = "x".repeat(300) + "grüße 東京 \uD83D\uDE00 \uD800 end";

        out.append(ascii);
        out.append((byte) '|');
        out.append(mixed);
        out.appendDigits(7, 3);

        String expected = ascii + "|" + "x".repeat(300) + "grüße 東京 \uD83D\uDE00 ? end007";
        assertEquals(expected, new String(out.toArray(), StandardCharsets.UTF_8), "a lone surrogate becomes ?");
    }

    @Test
    void clearEmptiesTheBufferAndGivesBackAHugeOne() {
        RecordBytes out = new RecordBytes(16);
        out.append("y".repeat(RecordBytes.RETAINED_BYTES + 1));

        out.clear();
        out.append("after");

        assertArrayEquals("after".getBytes(StandardCharsets.US_ASCII), out.toArray());
        assertEquals(RecordBytes.RETAINED_BYTES, out.array().length);
    }

    @Test
    void theMemoEncodesTheSameStringOnceAndANewOneAgain() {
        Utf8Memo memo = new Utf8Memo();
        String name = new String("worker-1");

        byte[] first = memo.bytesOf(name);

        assertSame(first, memo.bytesOf(name));
        assertArrayEquals("wörker-2".getBytes(StandardCharsets.UTF_8), memo.bytesOf("wörker-2"));
    }
}
