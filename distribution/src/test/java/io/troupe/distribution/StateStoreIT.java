package io.troupe.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The state store in the built distribution: the first start creates {@code data/state.mv.db} and the
 * shell reaches the store (stats, list, export, purge without {@code --yes}); a clean stop closes it and
 * the next start opens it again (and imports the export), and a bad value in {@code etc/io.troupe.store.cfg}
 * is logged with its file and key while the store keeps its last good value.
 *
 * <p><b>Threading:</b> JUnit runs the test on one thread; {@link TroupeProcess} reads the output on its own.
 */
class StateStoreIT {

    private static final Duration STARTUP = Duration.ofSeconds(60);
    private static final Duration REPLY = Duration.ofSeconds(20);
    private static final Duration STOP = Duration.ofSeconds(10);
    private static final Path JAVA_HOME = Path.of(System.getProperty("java.home"));

    @TempDir
    Path dir;

    @Test
    void theFirstStartCreatesTheStoreTheShellUsesItAndARestartOpensItAgain() throws Exception {
        Path home = TestInstallation.copy(dir, TestInstallation.freePort());
        Path file = home.resolve("data/state.mv.db");
        assertTrue(Files.isRegularFile(home.resolve("etc/io.troupe.store.cfg")), "no default etc/io.troupe.store.cfg");
        assertTrue(Files.notExists(file), "the distribution ships no store file");
        Path backup = dir.resolve("demo.state");

        try (TroupeProcess troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME)) {
            troupe.awaitLineStartingWith("Troupe ready", STARTUP);
            assertTrue(Files.isRegularFile(file), "no " + file + " after the first start");

            troupe.send("stats");
            troupe.awaitLineStartingWith("store ", REPLY);
            troupe.send("troupe:state-list");
            troupe.awaitLineStartingWith("(", REPLY);
            troupe.send("troupe:state-export demo \"" + backup + "\"");
            troupe.awaitLineStartingWith("exported ", REPLY);
            troupe.send("troupe:tenant-purge demo");
            troupe.awaitLineStartingWith("to remove them for good: troupe:tenant-purge --yes demo", REPLY);

            assertEquals(0, troupe.terminate(STOP), troupe::transcript);
        }
        assertTrue(Files.isRegularFile(backup), "no export at " + backup);
        // the store stops after the host, whose logger is gone by then: the next start shows it closed cleanly
        Path log = home.resolve("log/troupe.log");

        Files.writeString(home.resolve("etc/io.troupe.store.cfg"), "syncWrites = maybe\n");
        try (TroupeProcess troupe = TroupeProcess.start(home.resolve("bin/troupe"), dir, JAVA_HOME)) {
            troupe.awaitLineStartingWith("Troupe ready", STARTUP);
            awaitLogLine(log, " ERROR ", "io.troupe.store.cfg: syncWrites = 'maybe': not true or false; keeping true");
            troupe.send("troupe:state-import \"" + backup + "\"");
            troupe.awaitLineStartingWith("imported ", REPLY);
            assertEquals(0, troupe.terminate(STOP), troupe::transcript);
        }
        assertEquals(2, Files.readAllLines(log).stream().filter(line -> line.contains("State store " + file)
                && line.contains("syncWrites = true")).count(), "the store opened at both starts, synced");
    }

    private static void awaitLogLine(Path log, String... fragments) throws IOException {
        long deadline = System.nanoTime() + REPLY.toNanos();
        while (true) {
            if (Files.exists(log)) {
                for (String line : Files.readAllLines(log)) {
                    if (Arrays.stream(fragments).allMatch(line::contains)) {
                        return;
                    }
                }
            }
            if (System.nanoTime() > deadline) {
                fail("no line with " + Arrays.toString(fragments) + " in " + log + " within " + REPLY + ":\n"
                        + (Files.exists(log) ? Files.readString(log) : "(no file)"));
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
    }
}
