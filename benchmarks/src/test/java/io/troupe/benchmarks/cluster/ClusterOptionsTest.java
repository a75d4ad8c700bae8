package io.troupe.benchmarks.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The cluster suite's command line and the percentiles of its pause table. The suite itself starts four
 * distribution processes for minutes, so it has no smoke run in the build: {@code benchmarks/run --quick
 * cluster} is its smoke run.
 *
 * <p><b>Threading:</b> JUnit's thread.
 */
class ClusterOptionsTest {

    @Test
    void theDefaultsAreTheFullRunAndQuickShortensThePhases() {
        ClusterOptions full = ClusterOptions.parse(new String[0]);
        assertEquals(12, full.tenants());
        assertEquals(2, full.clientsPerTenant());
        assertEquals(300, full.rate());
        assertEquals(8, full.window());
        assertEquals(Duration.ofSeconds(10), full.warmup());
        assertEquals(Duration.ofSeconds(20), full.phase());

        ClusterOptions quick = ClusterOptions.parse(new String[] {"--quick", "--distribution", "/opt/troupe"});
        assertEquals(Duration.ofSeconds(3), quick.warmup());
        assertEquals(Duration.ofSeconds(5), quick.phase());
        assertEquals("/opt/troupe", quick.distribution());
        assertEquals(null, quick.keepLogs());

        ClusterOptions given = ClusterOptions.parse(new String[] {"--quick", "--phase", "7s", "--rate", "90",
            "--tenants", "6", "--clients", "3", "--window", "4", "--warmup", "2", "--jvm-opts", "-Xmx1g",
            "--keep-logs", "/tmp/logs"});
        assertEquals(Duration.ofSeconds(7), given.phase());
        assertEquals(Duration.ofSeconds(2), given.warmup());
        assertEquals(List.of(6, 3, 90, 4), List.of(given.tenants(), given.clientsPerTenant(), given.rate(),
                given.window()));
        assertEquals("-Xmx1g", given.jvmOptions());
        assertEquals("/tmp/logs", given.keepLogs());
    }

    @Test
    void aBadOptionIsNamed() {
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> ClusterOptions.parse(new String[] {"--nodes", "5"}));
        assertTrue(unknown.getMessage().contains("--nodes"), unknown.getMessage());
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class,
                () -> ClusterOptions.parse(new String[] {"--rate", "0"}));
        assertTrue(zero.getMessage().contains("--rate") && zero.getMessage().contains("0"), zero.getMessage());
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> ClusterOptions.parse(new String[] {"--phase"}));
        assertTrue(missing.getMessage().contains("--phase"), missing.getMessage());
    }

    @Test
    void pausesAreSummarisedByNearestRank() {
        assertEquals("-", ClusterReport.summary(List.of()));
        assertEquals("40 / 40 / 40", ClusterReport.summary(List.of(40.0)));
        assertEquals("20 / 90 / 90", ClusterReport.summary(List.of(90.0, 10.0, 20.0, 30.0)));
    }
}
