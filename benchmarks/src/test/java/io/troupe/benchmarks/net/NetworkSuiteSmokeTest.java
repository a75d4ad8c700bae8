package io.troupe.benchmarks.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs {@code NetworkSuite --quick} with one short shape against the three servers (each its own
 * process, driven by the distribution's {@code troupe-client bench}) and checks the report: a row per
 * server with positive numbers (the server's CPU and allocation per request included) and zero
 * errors, and the target rows. Nothing about speed. Needs the built distribution
 * ({@code distribution/target/troupe}), which the build makes before this module.
 */
class NetworkSuiteSmokeTest {

    private static final Pattern ROW = Pattern.compile(
            "^\\| 4 × 2 × 64 B \\| (.+?) \\| ([0-9,]+) \\| ([0-9.]+) ms \\| ([0-9.]+) ms \\| ([0-9.]+) ms \\| (\\d+) "
            + "\\| ([0-9.]+) µs \\| ([0-9.,]+) (B|KiB) \\|$");

    @BeforeAll
    static void serversUseTheTestClassPath() {
        // Under Surefire, java.class.path is a launcher jar; the servers need the real class path.
        String testClassPath = System.getProperty("surefire.test.class.path");
        if (testClassPath != null) {
            System.setProperty("troupe.bench.classpath", testClassPath);
        }
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void quickRunReportsEveryServerWithPositiveNumbersAndNoErrors() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = NetworkSuite.run(new String[] {"--quick", "--shapes", "4x2x64", "--warmup", "500ms",
            "--duration", "1s", "--jvm-opts", "-Xmx256m"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err);
        String report = out.toString(StandardCharsets.UTF_8);

        assertEquals(0, status, report);
        List<String> rows = report.lines().filter(line -> line.startsWith("| 4 × 2 × 64 B | ")).toList();
        assertEquals(ServerKind.values().length, rows.size(), report);
        for (ServerKind server : ServerKind.values()) {
            String row = rows.stream().filter(line -> line.contains("| " + server.label() + " |")).findFirst()
                    .orElseThrow(() -> new AssertionError("no row for " + server.label() + ":\n" + report));
            Matcher m = ROW.matcher(row);
            assertTrue(m.matches(), "malformed row: " + row);
            assertTrue(Double.parseDouble(m.group(2).replace(",", "")) > 0, row);
            for (int group = 3; group <= 5; group++) {
                assertTrue(Double.parseDouble(m.group(group)) > 0, row);
            }
            assertEquals("0", m.group(6), row);
            assertTrue(Double.parseDouble(m.group(7)) > 0, "server CPU per request: " + row);
            assertTrue(Double.parseDouble(m.group(8).replace(",", "")) > 0, "allocated per request: " + row);
        }
        assertTrue(report.contains("| 4 × 2 × 64 B: Troupe req/s ≥ 1.0× Netty+Pekko | "), report);
        assertTrue(report.contains("| 4 × 2 × 64 B: Troupe p99 ≤ Netty+Pekko p99 | "), report);
        Pattern light = Pattern.compile("^\\| 1,000 req/s, 1 connection \\| (.+?) \\| ([0-9,]+) \\| [0-9.]+ ms "
                + "\\| [0-9.]+ ms \\| ([0-9.]+) % \\| ([0-9.]+) µs \\|$", Pattern.MULTILINE);
        Matcher lightRows = light.matcher(report);
        int lightCount = 0;
        while (lightRows.find()) {
            lightCount++;
            // paced: every request due in the measured second is counted, whichever server
            assertEquals("1,000", lightRows.group(2), lightRows.group());
            assertTrue(Double.parseDouble(lightRows.group(4)) > 0, lightRows.group());
        }
        assertEquals(ServerKind.values().length, lightCount, report);
        assertTrue(report.contains("| 1,000 req/s: Troupe CPU per request ≤ 1.2× plain Netty | "), report);
    }
}
