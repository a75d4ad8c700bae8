package io.troupe.distribution.history;

import static io.troupe.distribution.history.CounterCheckerTest.assertKinds;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A history recorded to a file reads back the same, checks the same when replayed, and a malformed file is
 * refused with its name, the line and the reason.
 */
class HistoryFileTest {

    @TempDir
    Path dir;

    @Test
    void aRecordedHistoryReadsBackEntryForEntryAndReplaysToTheSameVerdict() throws IOException {
        Path file = dir.resolve("run.history");
        CounterChecker live = new CounterChecker(DurabilityPromise.everyTurn());
        History history;
        try (Writer writer = Files.newBufferedWriter(file, UTF_8)) {
            history = new History(List.of(live), writer);
            long op = history.invoke(1, CounterChecker.ADD, "alpha", "1");
            history.ok(op, "1");
            history.fault(Faults.KILL, "server", "tab\there, line\nthere, back\\slash");
            long read = history.invoke(2, CounterChecker.GET, "alpha", "");
            history.ok(read, "0");
            history.invoke(1, CounterChecker.ADD, "alpha", "1");
            List<CheckReport> reports = history.finish();
            assertKinds(reports.get(0), "too-low");
        }

        List<Event> events = HistoryFile.read(file);
        assertEquals(7, events.size());
        assertEquals("tab\there, line\nthere, back\\slash", events.get(2).value());
        assertEquals(Event.Type.INFO, events.get(6).type(), "an operation in flight at the end completes INFO");

        CheckReport replayed = HistoryFile.replay(file, List.of(new CounterChecker(DurabilityPromise.everyTurn())))
                .get(0);
        assertKinds(replayed, "too-low");
    }

    @Test
    void aMalformedLineIsRefusedWithTheFileTheLineAndTheReason() throws IOException {
        Path file = dir.resolve("bad.history");
        Files.writeString(file, "# a comment\n1\t5\tINVOKE\t1\t1\tcounter.add\talpha\t1\n2\t6\tDONE\t1\t1\tx\ty\tz\n");

        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> HistoryFile.read(file));

        assertEquals(file + ", line 3: the type 'DONE' is none of INVOKE, OK, FAIL, INFO, OBSERVE, FAULT",
                refused.getMessage());
    }

    @Test
    void aHistoryWhoseSeqsDoNotIncreaseIsRefused() throws IOException {
        Path file = dir.resolve("twice.history");
        Files.writeString(file, "1\t5\tFAULT\t-1\t0\tkill\tserver\t\n1\t6\tFAULT\t-1\t0\tkill\tserver\t\n");

        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> HistoryFile.replay(file, List.of(new CounterChecker(DurabilityPromise.everyTurn()))));

        assertTrue(refused.getMessage().contains("entry #1 follows #1"), refused.getMessage());
    }

    @Test
    void completingAnOperationThatIsNotInFlightIsRefused() {
        History history = new History(List.of(), null);
        long op = history.invoke(1, CounterChecker.ADD, "alpha", "1");
        history.ok(op, "1");

        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> history.ok(op, "1"));

        assertTrue(refused.getMessage().startsWith("operation 1 is not in flight"), refused.getMessage());
    }
}
