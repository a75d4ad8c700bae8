package io.troupe.ops.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The log's tail read backwards from a real file: the last complete lines, across block boundaries, never a
 * line the logger has not finished, never more than the byte limit.
 *
 * <p><b>Threading:</b> the test thread only.
 */
class LogTailTest {

    @TempDir
    Path dir;

    @Test
    void theLastLinesComeOldestFirstAcrossBlocksAndAnUnfinishedLastLineIsLeftOut() throws Exception {
        Path file = dir.resolve("troupe.log");
        StringBuilder text = new StringBuilder();
        List<String> written = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            String line = "2026-12-02T11:00:00Z INFO [main] line " + i + " é";
            written.add(line);
            text.append(line).append('\n');
        }
        text.append("half a line");
        Files.writeString(file, text, StandardCharsets.UTF_8);

        List<String> tail = new LogTail(file).lines(300);

        assertEquals(written.subList(1700, 2000), tail);
    }

    @Test
    void aShortFileGivesWhatItHasAndAMissingOneNothing() throws Exception {
        Path file = dir.resolve("troupe.log");
        Files.writeString(file, "one\r\ntwo\n", StandardCharsets.UTF_8);

        assertEquals(List.of("one", "two"), new LogTail(file).lines(10));
        assertEquals(List.of(), new LogTail(dir.resolve("absent.log")).lines(10));
        assertEquals(List.of(), new LogTail(null).lines(10));
    }

    @Test
    void aTailLongerThanTheByteLimitStartsAtALineBoundaryInsideIt() throws Exception {
        Path file = dir.resolve("troupe.log");
        String line = "y".repeat(999);
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 2000; i++) {
            text.append(line).append('\n');
        }
        Files.writeString(file, text, StandardCharsets.UTF_8);

        List<String> tail = new LogTail(file).lines(LogTail.MAX_LINES);

        assertEquals(LogTail.MAX_BYTES / 1000, tail.size());
        assertEquals(line, tail.get(0));
    }

    @Test
    void aCountOutOfRangeIsRefused() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> new LogTail(dir.resolve("x")).lines(0));

        assertEquals("lines must be between 1 and 2000, not 0", refused.getMessage());
    }
}
