package io.troupe.benchmarks.durable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs {@code DurabilitySuite} for a second per run, one round, on two small shapes, against a copy of
 * the built distribution ({@code distribution/target/troupe}, which the build makes before this module)
 * with the benchmark plugin, and checks the report: a row per shape and mode with positive numbers and
 * no errors, store activity in the two durable modes (the suite itself fails a durable run during which
 * the store wrote nothing), and the target rows. Nothing about speed.
 */
class DurabilitySuiteSmokeTest {

    private static final List<String> SHAPES = List.of("1 × 1 × 64 B", "4 × 4 × 64 B");
    private static final Pattern ROW = Pattern.compile("^\\| (.+?) \\| (.+?) \\| ([0-9,]+) \\| ([0-9.]+) ms \\| "
            + "([0-9.]+) ms \\| ([0-9.]+)× \\| (\\d+) \\| ([0-9,]+|—) \\| ([0-9.]+|—) \\| ([0-9.]+ ms|—) \\|$");

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void aShortRunReportsEveryModeOnEveryShapeWithTheStoreWritingInTheDurableModes() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = DurabilitySuite.run(new String[] {"--quick", "--shapes", "1x1x64,4x4x64", "--warmup", "300ms",
            "--duration", "1s", "--jvm-opts", "-Xmx256m"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err);
        String report = out.toString(StandardCharsets.UTF_8);

        assertEquals(0, status, report);
        for (String shape : SHAPES) {
            for (DurabilityMode mode : DurabilityMode.values()) {
                String row = report.lines().filter(line -> line.startsWith("| " + shape + " | " + mode.label() + " |"))
                        .findFirst().orElseThrow(() -> new AssertionError("no row for " + shape + ", " + mode.label()
                                + ":\n" + report));
                Matcher m = ROW.matcher(row);
                assertTrue(m.matches(), "malformed row: " + row);
                for (int group = 3; group <= 6; group++) {
                    assertTrue(Double.parseDouble(m.group(group).replace(",", "")) > 0, row);
                }
                assertEquals("0", m.group(7), row);
                if (mode != DurabilityMode.OFF) {
                    assertTrue(Double.parseDouble(m.group(8).replace(",", "")) > 0, "no syncs: " + row);
                    assertTrue(Double.parseDouble(m.group(9)) > 0, "no writes per sync: " + row);
                }
            }
            assertTrue(report.contains("| " + shape + ": every 10 ms ≥ 0.90× the req/s of off | "), report);
        }
    }
}
