package io.troupe.benchmarks.features;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.troupe.benchmarks.net.BenchResult;

/**
 * Runs {@code FeatureCostSuite} for a second per run, one round, on one small shape, against a copy of the
 * built distribution ({@code distribution/target/troupe}, which the build makes before this module), and checks
 * the report: a row per feature with positive numbers and no errors (the suite itself fails a metrics run whose
 * scrapes failed), scrapes counted, and a target row per feature. Nothing about speed.
 */
class FeatureCostSuiteSmokeTest {

    private static final Pattern ROW = Pattern.compile("^\\| 4 × 4 × 64 B \\| (.+?) \\| ([0-9,]+) \\| ([0-9.]+) ms \\| "
            + "([0-9.]+) ms \\| ([0-9.]+)× \\| ([0-9,]+) \\| (\\d+) \\|$");

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void aShortRunReportsEveryFeatureWithTheMetricsScrapedMeanwhile() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = FeatureCostSuite.run(new String[] {"--quick", "--shapes", "4x4x64", "--warmup", "300ms",
            "--duration", "1s", "--jvm-opts", "-Xmx256m"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err);
        String report = out.toString(StandardCharsets.UTF_8);

        assertEquals(0, status, report);
        for (Feature feature : Feature.values()) {
            String row = report.lines().filter(line -> line.startsWith("| 4 × 4 × 64 B | " + feature.label() + " |"))
                    .findFirst().orElseThrow(() -> new AssertionError("no row for " + feature.label() + ":\n" + report));
            Matcher m = ROW.matcher(row);
            assertTrue(m.matches(), "malformed row: " + row);
            for (int group = 2; group <= 5; group++) {
                assertTrue(Double.parseDouble(m.group(group).replace(",", "")) > 0, row);
            }
            assertEquals("0", m.group(7), row);
            if (feature != Feature.PLAIN) {
                assertTrue(report.contains("| 4 × 4 × 64 B, " + feature.label() + ": ≥ 0.90× the req/s of plain | "),
                        report);
            }
        }
        assertTrue(Pattern.compile("[1-9][0-9,]* scrapes in all").matcher(report).find(), report);
    }

    @Test
    void twoTenantsAddTheirThroughputsAndKeepTheWorseLatencies() {
        BenchResult sum = FeatureCostSuite.combined(new BenchResult(1000, 10, 50, 90, 1),
                new BenchResult(500, 20, 40, 100, 2));
        assertEquals(new BenchResult(1500, 20, 50, 100, 3), sum);
    }

    @Test
    void aShapeOfOneConnectionCannotBeSplitBetweenTwoTenants() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = FeatureCostSuite.run(new String[] {"--shapes", "1x1x64"}, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(64, status);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("needs at least two"), err.toString());
    }
}
