package io.troupe.host.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The files {@link DeployOutcomes} leaves beside a jar, in a real folder. */
class DeployOutcomesTest {

    @TempDir
    Path folder;

    private Properties status(String file) throws IOException {
        Properties status = new Properties();
        try (InputStream in = Files.newInputStream(folder.resolve(".status").resolve(file))) {
            status.load(in);
        }
        return status;
    }

    @Test
    void aRefusalIsMarkedBesideTheJarAndInItsStatusAndARunningJarClearsTheMark() throws IOException {
        Path jar = Files.write(folder.resolve("kv.jar"), "six".getBytes(StandardCharsets.UTF_8));
        DeployOutcomes outcomes = new DeployOutcomes(folder);
        Instant before = Instant.now();

        outcomes.refused("kv.jar", jar, DeployOutcomes.ROLLED_BACK, "kv", "6.0.0", "5.0.0", "no Auditor");
        Properties refused = status("kv.jar");
        assertEquals("rolled-back", refused.getProperty("outcome"));
        assertEquals("kv", refused.getProperty("symbolicName"));
        assertEquals("6.0.0", refused.getProperty("version"));
        assertEquals("5.0.0", refused.getProperty("runningVersion"));
        assertEquals("no Auditor", refused.getProperty("reason"));
        assertEquals(DeployOutcomes.digest(jar), refused.getProperty("sha256"));
        assertEquals(64, refused.getProperty("sha256").length());
        assertFalse(Instant.parse(refused.getProperty("time")).isBefore(before));
        String marker = Files.readString(folder.resolve("kv.jar.failed"));
        assertTrue(marker.startsWith("kv 6.0.0 was rejected: no Auditor\nrunning: kv 5.0.0\nsha256: "), marker);

        outcomes.running("kv.jar", jar, "kv", "6.0.1");
        Properties running = status("kv.jar");
        assertEquals("running", running.getProperty("outcome"));
        assertEquals("6.0.1", running.getProperty("runningVersion"));
        assertFalse(running.containsKey("reason"));
        assertFalse(Files.exists(folder.resolve("kv.jar.failed")));

        outcomes.refused("kv.jar", jar, DeployOutcomes.FAILED, null, null, null, "not usable: no manifest");
        assertTrue(Files.readString(folder.resolve("kv.jar.failed"))
                .startsWith("deploy/kv.jar was rejected: not usable: no manifest\nrunning: nothing\n"));
        outcomes.forget("kv.jar");
        assertFalse(Files.exists(folder.resolve("kv.jar.failed")));
        assertFalse(Files.exists(folder.resolve(".status").resolve("kv.jar")));
        try (var left = Files.list(folder.resolve(".status"))) {
            assertEquals(0, left.count(), "no temporary file is left behind");
        }
    }
}
