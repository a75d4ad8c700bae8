package io.troupe.client.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.troupe.testsupport.HostStatus;

/**
 * Reading {@code deploy/.status/<file>}: every key of the contract, and a precise error naming the
 * file and the key for a status that cannot be understood.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread.
 */
class DeployStatusTest {

    private static final String SHA = "ab".repeat(32);

    @TempDir
    Path deploy;

    @Test
    void noStatusFileMeansTheHostHasNotJudgedTheJar() throws Exception {
        assertEquals(Optional.empty(), DeployStatus.read(DeployStatus.fileOf(deploy, "kv.jar")));
    }

    @Test
    void everyKeyIsRead() throws Exception {
        HostStatus.write(deploy, "kv.jar", status("rolled-back", "2026-12-01T21:00:00.5Z"));

        DeployStatus status = DeployStatus.read(DeployStatus.fileOf(deploy, "kv.jar")).orElseThrow();

        assertEquals(new DeployStatus("kv.jar", SHA, DeployStatus.Outcome.ROLLED_BACK, Optional.of("kv"),
                Optional.of("6.0.0"), Optional.of("5.0.0"), Optional.of("importState failed"),
                Instant.parse("2026-12-01T21:00:00.5Z")), status);
        assertTrue(status.judges(SHA.toUpperCase(), Instant.parse("2026-12-01T21:00:00.5Z")));
        assertFalse(status.judges(SHA, Instant.parse("2026-12-01T21:00:00.501Z")));
        assertFalse(status.judges("cd".repeat(32), Instant.EPOCH));
    }

    @Test
    void aStatusThatCannotBeUnderstoodNamesTheFileAndTheKey() throws Exception {
        Path file = DeployStatus.fileOf(deploy, "kv.jar");

        HostStatus.write(deploy, "kv.jar", status("exploded", "2026-12-01T21:00:00Z"));
        assertBadStatus("the host's status " + file + " has outcome 'exploded': not running, rolled-back or failed");

        HostStatus.write(deploy, "kv.jar", status("running", "yesterday"));
        assertBadStatus("the host's status " + file + " has time 'yesterday': not an ISO-8601 instant");

        Properties noDigest = status("running", "2026-12-01T21:00:00Z");
        noDigest.remove("sha256");
        HostStatus.write(deploy, "kv.jar", noDigest);
        assertBadStatus("the host's status " + file + " has no sha256");
    }

    private void assertBadStatus(String detail) {
        DeployException e = assertThrows(DeployException.class,
                () -> DeployStatus.read(DeployStatus.fileOf(deploy, "kv.jar")));
        assertEquals(DeployException.BAD_STATUS, e.code());
        assertTrue(e.detail().startsWith(detail), e.detail());
    }

    private static Properties status(String outcome, String time) {
        Properties properties = new Properties();
        properties.setProperty("file", "kv.jar");
        properties.setProperty("sha256", SHA);
        properties.setProperty("outcome", outcome);
        properties.setProperty("symbolicName", "kv");
        properties.setProperty("version", "6.0.0");
        properties.setProperty("runningVersion", "5.0.0");
        properties.setProperty("reason", "importState failed");
        properties.setProperty("time", time);
        return properties;
    }
}
