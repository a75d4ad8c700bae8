package io.troupe.benchmarks.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs {@code TlsSuite} for about a second per cell against Troupe (the built distribution, with a
 * keystore made by keytool) and plain Netty, in plaintext and in TLS, and checks the report: both
 * shapes with a positive rate in every column, and the latency rows. Nothing about speed.
 */
class TlsSuiteSmokeTest {

    private static final String RATE = "([0-9,]+)";
    private static final String RATIO = "([0-9.]+)×";
    private static final Pattern ROW = Pattern.compile("^\\| (1 × 1|64 × 16) × 64 B \\| " + RATE + " \\| " + RATE
            + " \\| " + RATIO + " \\| " + RATE + " \\| " + RATE + " \\| " + RATIO + " \\| " + RATIO + " \\|$");

    @BeforeAll
    static void serversUseTheTestClassPath() {
        // Under Surefire, java.class.path is a launcher jar; the servers need the real class path.
        String testClassPath = System.getProperty("surefire.test.class.path");
        if (testClassPath != null) {
            System.setProperty("troupe.bench.classpath", testClassPath);
        }
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void aShortRunReportsEveryServerInPlaintextAndTls() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = TlsSuite.run(new String[] {"--warmup", "500ms", "--duration", "1s", "--jvm-opts", "-Xmx256m"},
                new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
        String report = out.toString(StandardCharsets.UTF_8);

        assertEquals(0, status, report);
        long rows = report.lines().filter(line -> line.startsWith("| 1 × 1 × 64 B") || line.startsWith("| 64 × 16"))
                .peek(line -> {
                    Matcher m = ROW.matcher(line);
                    assertTrue(m.matches(), "malformed row: " + line);
                    for (int group = 2; group <= m.groupCount(); group++) {
                        assertTrue(Double.parseDouble(m.group(group).replace(",", "")) > 0, line);
                    }
                }).count();
        assertEquals(2, rows, report);
        assertTrue(report.contains("| Troupe | ") && report.contains("| plain Netty | "), report);
    }
}
