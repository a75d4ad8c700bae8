package io.troupe.host.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link FileSink} against a real temporary folder. */
class FileSinkTest {

    private static final String NL = System.lineSeparator();

    @TempDir
    Path dir;

    @Test
    void createsMissingFoldersAndFlushesEachRecordBeforeAppendReturns() throws IOException {
        Path file = dir.resolve("home/log/troupe.log");
        FileSink sink = FileSink.open(file);

        sink.append("first" + NL);

        assertEquals("first" + NL, read(file), "visible without flush() or close()");
        sink.close();
    }

    @Test
    void appendsToAnExistingFileInsteadOfTruncatingIt() throws IOException {
        Path file = dir.resolve("troupe.log");
        Files.writeString(file, "from an earlier run" + NL);

        FileSink first = FileSink.open(file);
        first.append("one" + NL);
        first.close();
        FileSink second = FileSink.open(file);
        second.append("two" + NL);
        second.close();

        assertEquals("from an earlier run" + NL + "one" + NL + "two" + NL, read(file));
    }

    @Test
    void writesUtf8AndReplacesALoneSurrogateInsteadOfLosingTheRecord() throws IOException {
        Path file = dir.resolve("troupe.log");
        FileSink sink = FileSink.open(file);

        sink.append("grüße \uD800 ok" + NL);
        sink.close();

        assertEquals("grüße ? ok" + NL, read(file));
    }

    @Test
    void recordsAfterCloseAreDroppedAndCloseIsIdempotent() throws IOException {
        Path file = dir.resolve("troupe.log");
        FileSink sink = FileSink.open(file);
        sink.append("kept" + NL);

        sink.close();
        sink.append("dropped" + NL);
        sink.flush();
        sink.close();

        assertEquals("kept" + NL, read(file));
    }

    @Test
    void aWriteFailureIsReportedOnceAndNeverThrown() {
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(stderr, true, StandardCharsets.UTF_8);
        FileSink sink = new FileSink(Path.of("/broken/troupe.log"), new FailingWriter(),
                new SinkFailureReport(() -> err));

        sink.append("a" + NL);
        sink.append("b" + NL);
        sink.flush();
        sink.close();

        String reported = stderr.toString(StandardCharsets.UTF_8);
        assertEquals(1, reported.lines().count(), reported);
        assertTrue(reported.startsWith("troupe-log: cannot write log file /broken/troupe.log:"
                + " java.io.IOException: No space left on device"), reported);
    }

    @Test
    void recordsFromConcurrentThreadsAreNeverInterleaved() throws Exception {
        Path file = dir.resolve("troupe.log");
        FileSink sink = FileSink.open(file);
        int threads = 4;
        int perThread = 500;
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                done.add(pool.submit(() -> {
                    go.await();
                    for (int i = 0; i < perThread; i++) {
                        sink.append("thread-" + id + " record-" + i + NL + "\tsecond line " + id
                                + "/" + i + NL);
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        sink.close();

        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertEquals(2 * threads * perThread, lines.size());
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < lines.size(); i += 2) {
            String head = lines.get(i);
            String[] parts = head.substring("thread-".length()).split(" record-");
            assertEquals("\tsecond line " + parts[0] + "/" + parts[1], lines.get(i + 1));
            seen.add(head);
        }
        assertEquals(threads * perThread, seen.size());
    }

    private static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }

    /** A writer whose device is full. */
    private static final class FailingWriter extends Writer {
        @Override
        public void write(char[] buffer, int offset, int length) throws IOException {
            throw new IOException("No space left on device");
        }

        @Override
        public void flush() throws IOException {
            throw new IOException("No space left on device");
        }

        @Override
        public void close() throws IOException {
            throw new IOException("No space left on device");
        }
    }
}
