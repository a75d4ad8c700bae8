package io.troupe.benchmarks.inprocess;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs {@code InProcessSuite --quick} and checks the shape of its report: every workload has a row
 * with positive numbers for both runtimes and a verdict. Nothing about speed: whether a target is met
 * depends on the machine.
 */
class InProcessSuiteSmokeTest {

    private static final Pattern ROW = Pattern.compile(
            "^\\| (.+?) \\| ([0-9.,]+) \\| ([0-9.,]+) \\| ([0-9.]+)× \\| (.+?) \\| (yes|\\*\\*no\\*\\*) \\|$");

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void quickRunReportsEveryRowWithPositiveNumbers() throws Exception {
        String report = InProcessSuite.run(true, new PrintStream(System.err, true));

        List<String> rows = report.lines().filter(line -> line.startsWith("| ") && !line.startsWith("| workload"))
                .toList();
        assertEquals(WorkloadKind.values().length + 2, rows.size(), report);
        for (WorkloadKind kind : WorkloadKind.values()) {
            assertPositiveRow(rows, kind.label(), report);
        }
        assertPositiveRow(rows, InProcessSuite.SPAWN_TIME_LABEL, report);
        assertPositiveRow(rows, InProcessSuite.HEAP_LABEL, report);
        assertTrue(Pattern.compile("^" + InProcessSuite.GEOMETRIC_MEAN_LABEL
                + ": [0-9]+\\.[0-9]{2}× \\(target ≥ 1\\.5×: (met|\\*\\*not met\\*\\*)\\)$", Pattern.MULTILINE)
                .matcher(report).find(), report);
        assertTrue(report.contains("fork-join-executor"), "the Pekko configuration is printed:\n" + report);
        assertTrue(report.contains("WorkerPool of"), "the Troupe settings are printed:\n" + report);
    }

    private static void assertPositiveRow(List<String> rows, String label, String report) {
        String row = rows.stream().filter(line -> line.startsWith("| " + label)).findFirst()
                .orElseThrow(() -> new AssertionError("no row for " + label + ":\n" + report));
        Matcher matcher = ROW.matcher(row);
        assertTrue(matcher.matches(), "malformed row: " + row);
        for (int group = 2; group <= 4; group++) {
            double value = Double.parseDouble(matcher.group(group).replace(",", "").toLowerCase(Locale.ROOT));
            assertTrue(value > 0, "not positive in " + row);
        }
    }
}
