package io.troupe.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The typed configuration model in the built distribution: bad values in the files of {@code etc/}
 * are logged with the file, the key and the reason while the rest applies, and a change of
 * {@code etc/io.troupe.host.cfg} applies to the running runtime (FileInstall, ConfigAdmin, the host's
 * PID {@code io.troupe.host}).
 *
 * <p><b>Threading:</b> JUnit's thread; the process's output is read by {@link TroupeProcess}'s threads.
 */
class ConfigurationIT {

    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final Duration APPLIED = Duration.ofSeconds(30);
    private static final Duration STOP = Duration.ofSeconds(10);
    private static final Path JAVA_HOME = Path.of(System.getProperty("java.home"));

    @TempDir
    Path dir;

    /** With a blank in its path, as the FileInstall URL of a file under it escapes it. */
    private Path home;

    @BeforeEach
    void install() throws IOException {
        home = TestInstallation.copy(dir, TestInstallation.freePort());
        Path serverConfig = home.resolve("etc/io.troupe.server.cfg");
        Files.writeString(serverConfig, Files.readString(serverConfig) + "maxFrameBytes = abc\n");
        Files.writeString(home.resolve("etc/io.troupe.host.cfg"), "workers = 3\nworkers.max = lots\n");
    }

    @Test
    void badValuesAreLoggedWithFileKeyAndReasonAndAHostChangeAppliesWhileTroupeRuns() throws Exception {
        try (TroupeProcess troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME)) {
            troupe.awaitLineStartingWith("Troupe ready", STARTUP);
            awaitLog("file " + home.resolve("etc/io.troupe.host.cfg") + ": workers.max = 'lots': not an integer;"
                    + " keeping 0");
            awaitLog("file " + home.resolve("etc/io.troupe.server.cfg") + ": maxFrameBytes = 'abc': not an integer;"
                    + " keeping 1048576");
            int perCore = Math.max(3, 4 * Runtime.getRuntime().availableProcessors());
            awaitWorkers(troupe, "(min 3, max " + perCore + ")", "workers applies beside the bad workers.max");

            Files.writeString(home.resolve("etc/io.troupe.host.cfg"), "workers = 2\nworkers.max = 5\n");
            awaitWorkers(troupe, "(min 2, max 5)", "the changed file applies without a restart");
            assertEquals(0, troupe.terminate(STOP));
        }
    }

    /** Asks {@code stats} until its {@code workers} line contains {@code bounds}, within {@link #APPLIED}. */
    private static void awaitWorkers(TroupeProcess troupe, String bounds, String what)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + APPLIED.toNanos();
        String workers;
        do {
            troupe.send("stats");
            // while the host applies new settings it restarts its monitor, whose statistics service is
            // briefly away: stats then answers runtime.unavailable, and is asked again
            workers = troupe.awaitLineStartingWithAny(APPLIED, "workers ", "ERROR runtime.unavailable");
            if (workers.contains(bounds)) {
                return;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
        } while (System.nanoTime() - deadline < 0);
        fail(what + ": " + workers);
    }

    /** Waits until log/troupe.log has a line containing {@code text} (the logger writes every second). */
    private void awaitLog(String text) throws IOException {
        Path log = home.resolve("log/troupe.log");
        long deadline = System.nanoTime() + APPLIED.toNanos();
        while (System.nanoTime() - deadline < 0) {
            if (Files.exists(log) && Files.readString(log, StandardCharsets.UTF_8).contains(text)) {
                return;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
        fail("log/troupe.log has no line with: " + text);
    }
}
