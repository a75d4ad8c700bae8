package io.troupe.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash points: a child JVM ({@link CrashWriter}) writes acknowledged snapshots in a loop and is killed with
 * SIGKILL ({@code Process.destroyForcibly}) at a random moment, again and again on the same file. After each
 * kill the store must open, and every version the child acknowledged (printed once its stage completed)
 * must be there, or a later one, intact.
 *
 * <p>Kills: {@code -Dtroupe.crash.kills=N} (default {@value #DEFAULT_KILLS}; the long tier runs 50). Each
 * kill comes 50 to 1500 ms after the child is ready, which falls anywhere in a batch: between puts, in the
 * commit's chunk write, in the sync, or while acks are printed. The seed is printed, and
 * {@code -Dtroupe.crash.seed=S} repeats a run.
 *
 * <p><b>Threading:</b> one reader thread per child collects its acks into a concurrent map; the test thread
 * kills, waits for the exit, and checks.
 */
class CrashPointTest {

    static final int DEFAULT_KILLS = 3;
    static final int KEYS = 40;
    static final long VERSIONS_PER_RUN = 1_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void everyAcknowledgedSnapshotSurvivesKillMinus9AtRandomMoments() throws Exception {
        int kills = Integer.getInteger("troupe.crash.kills", DEFAULT_KILLS);
        long seed = Long.getLong("troupe.crash.seed", System.nanoTime());
        System.out.println("CrashPointTest: " + kills + " kills, seed " + seed + " (-Dtroupe.crash.seed=" + seed + ")");
        Random random = new Random(seed);
        Path file = dir.resolve("state.mv.db");
        Map<Integer, Long> acknowledged = new HashMap<>();
        long totalAcks = 0;
        for (int run = 0; run < kills; run++) {
            Map<Integer, Long> acks = runAndKill(file, run, 50 + random.nextInt(1450));
            totalAcks += acks.size();
            acks.forEach((key, version) -> acknowledged.merge(key, version, Math::max));
            long opened = System.nanoTime();
            try (MvStateStore store = MvStateStore.open(file)) {
                for (Map.Entry<Integer, Long> ack : acknowledged.entrySet()) {
                    Optional<byte[]> stored = store.read(CrashWriter.key(ack.getKey()));
                    if (stored.isEmpty()) {
                        fail("run " + run + ": key " + ack.getKey() + " was acknowledged at version " + ack.getValue()
                                + " and is gone (seed " + seed + ")");
                    }
                    long version = CrashSnapshot.versionOf(ack.getKey(), stored.get());
                    assertTrue(version >= ack.getValue(), "run " + run + ": key " + ack.getKey() + " acknowledged "
                            + "at version " + ack.getValue() + " but holds " + version + " (seed " + seed + ")");
                }
                assertEquals(store.list("crash").size(), store.stats().storedStates());
            }
            System.out.println("CrashPointTest: run " + run + ": " + acks.size() + " keys acknowledged, reopened in "
                    + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - opened) + " ms, file "
                    + Files.size(file) / 1024 + " KiB");
        }
        assertTrue(totalAcks > 0, "the children acknowledged nothing: the test tested nothing");
    }

    /** Runs one child, kills it {@code afterMillis} ms after it is ready; the highest version acked per key. */
    private Map<Integer, Long> runAndKill(Path file, int run, int afterMillis) throws Exception {
        Process child = new ProcessBuilder(javaCommand(), "-cp", classPath(), CrashWriter.class.getName(),
                file.toString(), Integer.toString(KEYS), Long.toString(run * VERSIONS_PER_RUN + 1))
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        Map<Integer, Long> acks = new ConcurrentHashMap<>();
        CountDownLatch ready = new CountDownLatch(1);
        List<String> unexpected = new ArrayList<>();
        AtomicBoolean killed = new AtomicBoolean();
        Thread reader = new Thread(() -> read(child, killed, acks, ready, unexpected), "crash-child-reader");
        reader.start();
        try {
            assertTrue(ready.await(30, TimeUnit.SECONDS), "the child did not open the store within 30 s");
            // the moment of the kill is what the test varies: any instant of the writer's cycle
            boolean exited = child.waitFor(afterMillis, TimeUnit.MILLISECONDS);
            assertTrue(!exited, "the child exited by itself with status " + (exited ? child.exitValue() : 0));
        } finally {
            killed.set(true);
            child.destroyForcibly();
            assertTrue(child.waitFor(30, TimeUnit.SECONDS), "the killed child did not end");
            reader.join(TimeUnit.SECONDS.toMillis(30));
        }
        synchronized (unexpected) {
            assertTrue(unexpected.isEmpty(), "child printed: " + unexpected);
        }
        return acks;
    }

    private static void read(Process child, AtomicBoolean killed, Map<Integer, Long> acks, CountDownLatch ready,
            List<String> unexpected) {
        try (BufferedReader lines = new BufferedReader(
                new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                if (line.equals("ready")) {
                    ready.countDown();
                } else if (line.startsWith("ack ")) {
                    String[] parts = line.split(" ");
                    if (parts.length == 3) { // a line cut short by the kill is not an ack
                        acks.merge(Integer.parseInt(parts[1]), Long.parseLong(parts[2]), Math::max);
                    }
                } else if (!line.isEmpty()) {
                    synchronized (unexpected) {
                        unexpected.add(line);
                    }
                }
            }
        } catch (IOException e) {
            // destroyForcibly closes the pipe too: after the kill, that is the end of the output
            if (!killed.get()) {
                synchronized (unexpected) {
                    unexpected.add(e.toString());
                }
            }
        } catch (NumberFormatException e) {
            synchronized (unexpected) {
                unexpected.add(e.toString());
            }
        }
    }

    private static String javaCommand() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** The test class path: surefire's real one when it runs the tests from a manifest-only jar. */
    private static String classPath() {
        String surefire = System.getProperty("surefire.test.class.path");
        return surefire != null && !surefire.isBlank() ? surefire : System.getProperty("java.class.path");
    }
}
