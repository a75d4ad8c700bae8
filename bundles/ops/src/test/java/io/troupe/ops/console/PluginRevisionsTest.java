package io.troupe.ops.console;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.troupe.client.deploy.DeployStatus;

/**
 * The jars kept for rollbacks, on real files: each jar the host reports running is copied (checked against the
 * status's digest), the one that ran before becomes the previous revision, and a rollback's jar trades places
 * with the current one.
 *
 * <p><b>Threading:</b> the test thread only.
 */
class PluginRevisionsTest {

    @TempDir
    Path dir;

    private static String sha(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    private DeployStatus running(String file, byte[] bytes, String version) throws Exception {
        Files.write(dir.resolve("deploy").resolve(file), bytes);
        return new DeployStatus(file, sha(bytes), DeployStatus.Outcome.RUNNING, Optional.of("io.troupe.sample.counter"),
                Optional.of(version), Optional.of(version), Optional.empty(), Instant.now());
    }

    @Test
    void theJarThatRanBeforeTheCurrentOneIsKeptAndARollbackTradesThemPlaces() throws Exception {
        Files.createDirectories(dir.resolve("deploy"));
        PluginRevisions revisions = new PluginRevisions(dir.resolve("kept"));
        byte[] v1 = "counter 1.0.0".getBytes(StandardCharsets.UTF_8);
        byte[] v2 = "counter 2.0.0".getBytes(StandardCharsets.UTF_8);

        assertTrue(revisions.running(dir.resolve("deploy"), running("counter.jar", v1, "1.0.0")));
        assertTrue(revisions.previous("counter.jar").isEmpty(), "nothing ran before the first jar");
        DeployStatus second = running("counter.jar", v2, "2.0.0");
        assertTrue(revisions.running(dir.resolve("deploy"), second));
        assertFalse(revisions.running(dir.resolve("deploy"), second), "the same bytes are kept once");

        PluginRevisions.Kept previous = revisions.previous("counter.jar").orElseThrow();
        assertEquals("1.0.0", previous.version());
        assertArrayEquals(v1, Files.readAllBytes(previous.jar()));

        assertTrue(revisions.running(dir.resolve("deploy"), running("counter.jar", v1, "1.0.0")));
        PluginRevisions.Kept afterRollback = revisions.previous("counter.jar").orElseThrow();
        assertEquals("2.0.0", afterRollback.version());
        assertArrayEquals(v2, Files.readAllBytes(afterRollback.jar()));
    }

    @Test
    void bytesThatAreNoLongerTheOnesTheHostJudgedAreNotKept() throws Exception {
        Files.createDirectories(dir.resolve("deploy"));
        PluginRevisions revisions = new PluginRevisions(dir.resolve("kept"));
        DeployStatus judged = running("counter.jar", "old".getBytes(StandardCharsets.UTF_8), "1.0.0");
        Files.writeString(dir.resolve("deploy/counter.jar"), "replaced since");

        assertFalse(revisions.running(dir.resolve("deploy"), judged));
    }

    @Test
    void aDeletedJarIsForgottenWithItsCopies() throws Exception {
        Files.createDirectories(dir.resolve("deploy"));
        PluginRevisions revisions = new PluginRevisions(dir.resolve("kept"));
        revisions.running(dir.resolve("deploy"), running("counter.jar", new byte[] {1}, "1.0.0"));
        revisions.running(dir.resolve("deploy"), running("counter.jar", new byte[] {2}, "2.0.0"));

        revisions.forget("counter.jar");

        assertTrue(revisions.previous("counter.jar").isEmpty());
        assertFalse(Files.exists(dir.resolve("kept/counter.jar")));
    }
}
