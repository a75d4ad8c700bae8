package io.troupe.benchmarks.micro;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs the mailbox and codec micro-benchmarks for a fraction of a second each, in this JVM, and
 * checks the shape of the report: every row is there with positive numbers, and the MB/s column is
 * the frame rate times the frame size. Nothing about speed.
 */
class MicroSuiteSmokeTest {

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void aSmokeRunReportsEveryMailboxAndCodecRowWithPositiveNumbers() throws Exception {
        String report = MicroSuite.run(MicroSettings.SMOKE, new PrintStream(System.err, true));

        List<String> rows = report.lines().filter(line -> line.startsWith("| ") && !line.startsWith("| benchmark")
                && !line.startsWith("| operation")).toList();
        // the mailbox's 3; the codec's encode, decode and decode from a direct buffer at 2 sizes each
        assertEquals(3 + 6, rows.size(), report);
        for (String row : rows) {
            String[] cells = row.substring(2, row.length() - 2).split(" \\| ");
            for (int i = 2; i < cells.length; i++) {
                assertTrue(value(cells[i]) > 0, "column " + i + " is not positive in " + row);
            }
        }
        for (String row : rows.subList(3, 9)) {
            String[] cells = row.substring(2, row.length() - 2).split(" \\| ");
            double expected = value(cells[3]) * value(cells[2]) / 1e6;
            assertEquals(expected, value(cells[4]), Math.max(0.1, expected * 0.01), "MB/s in " + row);
        }
        assertTrue(report.contains("```\nBenchmark"), "JMH's own table follows:\n" + report);
        assertTrue(!report.contains("### Logger"), "no logger table when the logger did not run:\n" + report);
    }

    private static double value(String cell) {
        return Double.parseDouble(cell.trim().replace(",", "").toLowerCase(Locale.ROOT));
    }
}
