package io.troupe.host.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.event.Level;

/**
 * {@link RollingFile} and {@link Outputs} when the log file cannot be written, on real files: a disk that
 * is full ({@code /dev/full} behind the log file's name: every write fails with ENOSPC), and a log folder
 * replaced by a plain file while the file is open (a trick that works for root too, which ignores
 * permission bits). The clock of the path check and of the retries is manual; single-threaded.
 */
class LogFileFailureTest {

    private static final Path DEV_FULL = Path.of("/dev/full");

    @TempDir
    Path dir;

    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(stderr, true, StandardCharsets.UTF_8);
    private final AtomicLong now = new AtomicLong();

    @Test
    void aFullDiskLosesTheChunksFromTheFileIsToldOnceAndTheFileWorksAgainOnceItTakesWrites() throws IOException {
        assumeTrue(Files.isWritable(DEV_FULL), "/dev/full is needed");
        Path file = dir.resolve("troupe.log");
        Files.createSymbolicLink(file, DEV_FULL);
        RollingFile out = RollingFile.open(file, 1 << 20, 2, () -> err, now::get);

        assertFalse(append(out, "one\n"));
        assertFalse(append(out, "two\nthree\n"));
        assertTrue(out.failing());
        assertEquals(1, lines().size(), "told once: " + lines());
        assertTrue(lines().get(0).contains("log file " + file + " fails (cannot write it: IOException: No space left"
                + " on device)"), lines().get(0));

        Files.delete(file); // the disk has room again: here, the name leads to a real file once more
        passMillis(RollingFile.CHECK_MILLIS);
        out.flush(false);
        assertTrue(append(out, "four\n"));

        String summary = out.takeRecovery();
        assertTrue(summary.contains("works again") && summary.contains("3 records (14 bytes)"), summary);
        assertNull(out.takeRecovery(), "the end of an episode is handed over once");
        assertEquals(2, lines().size(), lines().toString());
        out.close();
        assertEquals("four\n", Files.readString(file));
    }

    @Test
    void aLogFolderReplacedByAFileIsSeenAtAFlushAndTheFileIsOpenedAgainOnceTheFolderCanBeMade() throws IOException {
        Path folder = dir.resolve("log");
        Path file = folder.resolve("troupe.log");
        RollingFile out = RollingFile.open(file, 1 << 20, 2, () -> err, now::get);
        assertTrue(append(out, "before\n"));

        Files.move(folder, dir.resolve("log.moved"));
        Files.writeString(folder, "not a folder");
        out.flush(false);
        assertTrue(append(out, "unseen yet\n"), "the path is checked once per CHECK_MILLIS only");
        passMillis(RollingFile.CHECK_MILLIS);
        out.flush(false);

        assertTrue(out.failing());
        assertEquals(1, lines().size(), lines().toString());
        assertTrue(lines().get(0).contains("cannot open it: NotDirectoryException: " + folder), lines().get(0));
        assertFalse(append(out, "lost 1\n"));
        passMillis(RollingFile.RETRY_MILLIS);
        assertFalse(append(out, "lost 2\n"), "tried again, and the folder is still a file");
        assertEquals(1, lines().size(), "still told once: " + lines());

        Files.delete(folder);
        assertFalse(append(out, "lost 3\n"), "not tried again before RETRY_MILLIS");
        passMillis(RollingFile.RETRY_MILLIS);
        assertTrue(append(out, "after\n"));
        out.close();

        assertEquals("after\n", Files.readString(file));
        assertEquals("before\nunseen yet\n", Files.readString(dir.resolve("log.moved/troupe.log")));
        assertTrue(lines().get(1).contains("3 records (21 bytes) could not be written"), lines().toString());
    }

    @Test
    void aFileRotatedAwayByAnotherProgramIsOpenedAgainSilently() throws IOException {
        Path file = dir.resolve("troupe.log");
        RollingFile out = RollingFile.open(file, 1 << 20, 2, () -> err, now::get);
        assertTrue(append(out, "old\n"));
        Files.move(file, dir.resolve("troupe.log.rotated"));

        passMillis(RollingFile.CHECK_MILLIS);
        out.flush(false);
        assertTrue(append(out, "new\n"));
        out.close();

        assertEquals("new\n", Files.readString(file));
        assertEquals("old\n", Files.readString(dir.resolve("troupe.log.rotated")));
        assertEquals("", stderr.toString(StandardCharsets.UTF_8));
    }

    @Test
    void whileTheFileFailsRecordsGoToTheConsoleAndTheFileGetsAWarningWhenItWorksAgain() throws IOException {
        assumeTrue(Files.isWritable(DEV_FULL), "/dev/full is needed");
        Path file = dir.resolve("troupe.log");
        Files.createSymbolicLink(file, DEV_FULL);
        RollingFile rolling = RollingFile.open(file, 1 << 20, 2, () -> err, now::get);
        Outputs outputs = new Outputs(rolling, new ConsoleOutput(() -> err), false,
                (level, message, thrown) -> (level + " " + message + "\n").getBytes(StandardCharsets.UTF_8));

        write(outputs, "record while full\n");
        Files.delete(file);
        passMillis(RollingFile.CHECK_MILLIS);
        outputs.flush(false);
        write(outputs, "record after\n");
        outputs.close();

        List<String> console = lines();
        assertEquals(3, console.size(), console.toString());
        assertTrue(console.get(0).startsWith("troupe-log: log file " + file + " fails"), console.get(0));
        assertEquals("record while full", console.get(1));
        assertTrue(console.get(2).startsWith("troupe-log: log file " + file + " works again"), console.get(2));
        List<String> inFile = Files.readAllLines(file);
        assertEquals(2, inFile.size(), inFile.toString());
        assertEquals("record after", inFile.get(0));
        assertTrue(inFile.get(1).startsWith(Level.WARN + " log file " + file + " works again after failing for 1 s"),
                inFile.get(1));
        assertTrue(inFile.get(1).contains("1 records (18 bytes)"), inFile.get(1));
    }

    private void passMillis(long millis) {
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(millis));
    }

    private List<String> lines() {
        return stderr.toString(StandardCharsets.UTF_8).lines().toList();
    }

    private static boolean append(RollingFile out, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return out.append(bytes, 0, bytes.length);
    }

    private static void write(LogOutput out, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        out.write(bytes, 0, bytes.length);
    }
}
