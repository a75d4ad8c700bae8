package io.troupe.client.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.troupe.testsupport.HostStatus;
import io.troupe.testsupport.ManualClock;
import io.troupe.testsupport.TestJars;

/**
 * The wait for the host's outcome, deterministic: a manual clock that each pause moves on, and the
 * host played by the test, which writes the status files between two reads.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread; the poller pauses on it.
 */
class StatusPollerTest {

    private static final String KV = "kv";
    private static final Instant T = Instant.parse("2026-12-01T21:00:00Z");

    @TempDir
    Path deploy;

    private final ManualClock clock = new ManualClock(T);
    private final List<Duration> pauses = new ArrayList<>();
    /** What the host does during the next pause, if anything. */
    private HostStep onPause = () -> { };
    private String sha256;

    @FunctionalInterface
    private interface HostStep {
        void run() throws IOException;
    }

    @BeforeEach
    void deployAJar() throws IOException {
        TestJars.bundle(deploy.resolve("kv.jar"), KV, "6.0.0");
        sha256 = HostStatus.sha256(deploy.resolve("kv.jar"));
    }

    private StatusPoller poller() {
        return new StatusPoller(clock, duration -> {
            pauses.add(duration);
            clock.advance(duration);
            try {
                onPause.run();
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        });
    }

    private DeployStatus await(Duration timeout) throws Exception {
        return poller().await(deploy, "kv.jar", "deploy/kv.jar", sha256, T, timeout);
    }

    @Test
    void anOutcomeAlreadyWrittenForTheseBytesSinceTheRenameIsReturnedWithoutPausing() throws Exception {
        HostStatus.judge(deploy, "kv.jar", "running", KV, "6.0.0", "6.0.0", null, T);

        DeployStatus status = await(Duration.ofSeconds(60));

        assertEquals(DeployStatus.Outcome.RUNNING, status.outcome());
        assertEquals("kv 6.0.0", status.running());
        assertEquals(List.of(), pauses);
    }

    @Test
    void theStatusIsReadAgainEveryHundredMillisecondsUntilTheHostWritesIt() throws Exception {
        onPause = () -> {
            if (pauses.size() == 3) {
                HostStatus.judge(deploy, "kv.jar", "rolled-back", KV, "6.0.0", "5.0.0", "preStart failed: boom",
                        clock.instant());
            }
        };

        DeployStatus status = await(Duration.ofSeconds(60));

        assertEquals(List.of(Duration.ofMillis(100), Duration.ofMillis(100), Duration.ofMillis(100)), pauses);
        assertEquals(DeployStatus.Outcome.ROLLED_BACK, status.outcome());
        assertEquals("preStart failed: boom", status.reason().orElseThrow());
        assertEquals("kv 5.0.0", status.running());
        assertEquals("kv 6.0.0", status.judged());
    }

    @Test
    void aStatusOfOtherBytesOrFromBeforeTheRenameIsNotTheOutcome() throws Exception {
        HostStatus.judge(deploy, "kv.jar", "running", KV, "6.0.0", "6.0.0", null, T.minusMillis(1));
        onPause = () -> {
            if (pauses.size() == 1) {
                TestJars.bundle(deploy.resolve("kv.jar"), KV, "7.0.0");
                HostStatus.judge(deploy, "kv.jar", "running", KV, "7.0.0", "7.0.0", null, clock.instant());
            }
        };

        DeployException e = assertThrows(DeployException.class, () -> await(Duration.ofMillis(250)));

        assertEquals(DeployException.DEPLOY_TIMEOUT, e.code());
        assertEquals("the host reported no outcome for deploy/kv.jar within 250 ms (is Troupe running, and is "
                + deploy + " its deploy folder?); the jar stays there", e.detail());
        assertEquals(List.of(Duration.ofMillis(100), Duration.ofMillis(100), Duration.ofMillis(50)), pauses);
    }

    @Test
    void aFailureWithNothingRunningSaysSo() throws Exception {
        HostStatus.judge(deploy, "kv.jar", "failed", KV, "6.0.0", null, "the bundle did not start: boom", T);

        DeployStatus status = await(Duration.ofSeconds(1));

        assertEquals(DeployStatus.Outcome.FAILED, status.outcome());
        assertEquals("nothing", status.running());
        assertTrue(Files.readString(deploy.resolve("kv.jar.failed")).startsWith("kv 6.0.0 was rejected: "));
    }
}
