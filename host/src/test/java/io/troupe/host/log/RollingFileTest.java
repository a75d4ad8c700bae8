package io.troupe.host.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link RollingFile} against a real temporary folder; single-threaded. */
class RollingFileTest {

    @TempDir
    Path dir;

    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(stderr, true, StandardCharsets.UTF_8);
    private final Supplier<PrintStream> failures = () -> err;

    @Test
    void createsMissingFoldersAndAppendsToAnExistingFile() throws IOException {
        Path file = dir.resolve("home/log/troupe.log");
        RollingFile first = RollingFile.open(file, 1024, 2, failures);
        write(first, "one\n");
        first.close();
        RollingFile second = RollingFile.open(file, 1024, 2, failures);
        write(second, "two\n");
        second.close();

        assertEquals("one\ntwo\n", Files.readString(file));
    }

    @Test
    void rollsBeforeAChunkThatWouldPassTheLimitAndKeepsTheRetentionCount() throws IOException {
        Path file = dir.resolve("troupe.log");
        RollingFile out = RollingFile.open(file, 1024, 2, failures);

        for (int chunk = 0; chunk < 10; chunk++) {
            write(out, String.format("chunk %d %0400d\n", chunk, 0));
        }
        out.close();

        assertTrue(Files.size(file) <= 1024);
        assertTrue(Files.readString(file).startsWith("chunk 8 "), "the newest chunks in troupe.log");
        assertTrue(Files.readString(out.rolled(1)).startsWith("chunk 6 "));
        assertTrue(Files.readString(out.rolled(2)).startsWith("chunk 4 "));
        assertFalse(Files.exists(out.rolled(3)), "older files are deleted");
        for (Path each : new Path[] {file, out.rolled(1), out.rolled(2)}) {
            for (String line : Files.readAllLines(each)) {
                assertTrue(line.matches("chunk \\d 0{400}"), "records are never split: " + line);
            }
        }
    }

    @Test
    void aSmallerRetentionDeletesTheFilesPastItAtTheNextRoll() throws IOException {
        Path file = dir.resolve("troupe.log");
        RollingFile out = RollingFile.open(file, 1024, 4, failures);
        for (int chunk = 0; chunk < 12; chunk++) {
            write(out, String.format("%0600d\n", chunk));
        }
        assertTrue(Files.exists(out.rolled(4)));

        out.setLimits(1024, 1);
        write(out, String.format("%0600d\n", 99));
        out.close();

        assertTrue(Files.exists(out.rolled(1)));
        assertFalse(Files.exists(out.rolled(2)));
        assertFalse(Files.exists(out.rolled(4)));
    }

    @Test
    void aRetentionOfZeroKeepsOnlyTheCurrentFile() throws IOException {
        Path file = dir.resolve("troupe.log");
        RollingFile out = RollingFile.open(file, 1024, 0, failures);
        for (int chunk = 0; chunk < 5; chunk++) {
            write(out, String.format("%0600d\n", chunk));
        }
        out.close();

        assertEquals(String.format("%0600d\n", 4), Files.readString(file));
        assertFalse(Files.exists(out.rolled(1)));
    }

    @Test
    void aChunkLargerThanTheLimitGoesIntoAFileOfItsOwn() throws IOException {
        Path file = dir.resolve("troupe.log");
        RollingFile out = RollingFile.open(file, 1024, 3, failures);

        write(out, "small\n");
        write(out, "x".repeat(3000) + "\n");
        out.close();

        assertEquals(3001, Files.size(file));
        assertEquals("small\n", Files.readString(out.rolled(1)));
    }

    @Test
    void writingAfterCloseDoesNothingAndReportsNothing() throws IOException {
        RollingFile out = RollingFile.open(dir.resolve("troupe.log"), 1024, 1, failures);
        out.close();

        write(out, "late\n");
        out.flush(true);
        out.close();

        assertEquals(0, Files.size(dir.resolve("troupe.log")));
        assertEquals("", stderr.toString(StandardCharsets.UTF_8));
    }

    private static void write(RollingFile out, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        out.write(bytes, 0, bytes.length);
    }
}
