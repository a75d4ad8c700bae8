package io.troupe.benchmarks.scale;

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

/**
 * Runs {@code IdleConnectionsSuite --quick} with a few hundred connections in two steps, spread over two
 * source addresses, against a copy of the distribution, and checks the report: all connected, positive
 * heap and echo figures, the projection. Nothing about speed or size.
 */
class IdleConnectionsSuiteSmokeTest {

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void quickRunConnectsEveryClientInStepsAndReportsPositiveFigures() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = IdleConnectionsSuite.run(new String[] {"--quick", "--steps", "150,300", "--per-address",
            "200", "--jvm-opts", "-Xmx256m"}, new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
        String report = out.toString(StandardCharsets.UTF_8);

        assertEquals(0, status, report);
        assertTrue(report.contains("| idle authenticated connections | 300 | 300 | yes |"), report);
        for (String step : new String[] {"150", "300"}) {
            assertPositive(report, "(?m)^\\| " + step + " \\| [0-9.]+ s \\| ([0-9.]+) MiB \\|");
        }
        assertPositive(report, "\\| server heap in use after full GC, with the connections \\| ([0-9.]+) MiB \\|");
        assertPositive(report, "\\| heap per idle connection at 300 \\| ([0-9,]+) B \\|");
        assertPositive(report, "\\| echo round trip meanwhile, p50 of 100 \\| ([0-9.]+) ms \\|");
        assertPositive(report, "\\| echo round trip meanwhile, max of 100 \\| ([0-9.]+) ms \\|");
        assertTrue(report.contains("Projection to 1,000,000 idle connections, from the figures at 300:"), report);
        assertTrue(report.contains("Here the first limit is "), report);
    }

    private static void assertPositive(String report, String regex) {
        Matcher m = Pattern.compile(regex).matcher(report);
        assertTrue(m.find(), "no match for " + regex + " in:\n" + report);
        assertTrue(Double.parseDouble(m.group(1).replace(",", "")) > 0, m.group());
    }
}
