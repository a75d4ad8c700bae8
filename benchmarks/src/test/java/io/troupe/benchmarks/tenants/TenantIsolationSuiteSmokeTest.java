package io.troupe.benchmarks.tenants;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs {@code TenantIsolationSuite} with every scenario for about a second per phase against
 * copies of the built distribution ({@code distribution/target/troupe}, which the build makes before
 * this module) with the {@code burn} plugin from this module's test class path, and checks the
 * report: a row per scenario with positive percentiles, ratios and throughputs (B beside the CPU hog
 * included), and the targets' rows. Nothing about speed.
 */
class TenantIsolationSuiteSmokeTest {

    private static final String MS = "([0-9.]+)";
    private static final Pattern ROW = Pattern.compile("^\\| (.+?) \\| " + MS + "/" + MS + "/" + MS + " ms \\| " + MS
            + "/" + MS + "/" + MS + " ms \\| " + MS + "× \\| ([0-9,]+) \\| ([0-9,]+) \\| " + MS + "× \\| " + MS + "/"
            + MS + "/" + MS + " ms \\| " + MS + "× \\|$");

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void aShortRunReportsEveryScenarioWithPositiveNumbers() throws Exception {
        List<String> args = new ArrayList<>(List.of("--warmup", "300ms", "--duration", "1s", "--jvm-opts",
                "-Xmx256m"));
        String burn = burnPluginOnTheClassPath();
        if (burn != null) {
            args.addAll(List.of("--burn-plugin", burn));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = TenantIsolationSuite.run(args.toArray(String[]::new),
                new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
        String report = out.toString(StandardCharsets.UTF_8);

        assertEquals(0, status, report);
        for (Scenario scenario : Scenario.values()) {
            String row = report.lines().filter(line -> line.startsWith("| " + scenario.title() + " ("))
                    .findFirst().orElseThrow(() -> new AssertionError("no row for " + scenario.title() + ":\n"
                            + report));
            Matcher m = ROW.matcher(row);
            assertTrue(m.matches(), "malformed row: " + row);
            for (int group = 2; group <= m.groupCount(); group++) {
                assertTrue(Double.parseDouble(m.group(group).replace(",", "")) > 0, row);
            }
            assertTrue(report.contains("| " + scenario.title() + " | "), "no target row for " + scenario.title()
                    + ":\n" + report);
        }
        assertTrue(report.contains("Machine: "), report);
    }

    /** The burn plugin's jar as the build resolved it (the reactor's or the local repository's). */
    private static String burnPluginOnTheClassPath() {
        // Under Surefire, java.class.path may be a launcher jar; the real class path is this property.
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        return Arrays.stream(classPath.split(File.pathSeparator))
                .filter(entry -> new File(entry).getName().startsWith("troupe-sample-burn-") && entry.endsWith(".jar"))
                .findFirst().orElse(null);
    }
}
