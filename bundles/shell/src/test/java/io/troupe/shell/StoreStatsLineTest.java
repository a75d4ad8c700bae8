package io.troupe.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.troupe.api.monitor.RuntimeSnapshot;
import io.troupe.api.monitor.WorkerPoolStats;
import io.troupe.api.state.StateKey;
import io.troupe.api.state.StoreStats;
import io.troupe.store.MvStateStore;

/**
 * The store's line of {@code troupe:stats}: its figures, and the write rate over the right window, on a
 * manual clock.
 *
 * <p><b>Threading:</b> JUnit runs each test on one thread.
 */
class StoreStatsLineTest {

    @TempDir
    Path dir;

    /** A clock that moves only when the line waits, or when the test says. */
    private static final class ManualClock implements StoreStatsLine.Clock {
        final AtomicLong nanos = new AtomicLong(1_000_000_000L);
        final AtomicLong waits = new AtomicLong();

        @Override
        public long getAsLong() {
            return nanos.get();
        }

        @Override
        public void await(long wait) {
            waits.incrementAndGet();
            nanos.addAndGet(wait);
        }
    }

    @Test
    void formatsTheFiguresOfTheStore() {
        assertEquals("store         812.4 writes/s  48210 writes (3.0 MiB)  9120 syncs  write p99 1.8 ms  42 stored "
                + "(2.1 KiB)", StoreStatsLine.format(new StoreStats(48210, 3L << 20, 9120, 1_800_000, 42, 2150),
                        812.4));
    }

    @Test
    void theFirstCallMeasuresAWindowAndLaterCallsTheTimeSinceThePreviousOne() {
        ManualClock clock = new ManualClock();
        StoreStatsLine line = new StoreStatsLine(clock);
        AtomicLong writes = new AtomicLong(100);

        String first = line.line(() -> {
            long now = writes.getAndAdd(50);
            return new StoreStats(now, 0, 0, 0, 0, 0);
        });
        assertTrue(first.startsWith("store         100.0 writes/s  150 writes"), first);
        assertEquals(1, clock.waits.get());

        clock.nanos.addAndGet(TimeUnit.SECONDS.toNanos(10));
        writes.set(1150);
        String second = line.line(() -> new StoreStats(writes.get(), 0, 0, 0, 0, 0));
        assertTrue(second.startsWith("store         100.0 writes/s  1150 writes"), second);
        assertEquals(1, clock.waits.get(), "no new window: the previous call is 10 s old");
    }

    @Test
    void statsPrintsTheStoreLineAfterTheSummary() throws Exception {
        RuntimeSnapshot snapshot = new RuntimeSnapshot(Instant.EPOCH,
                new WorkerPoolStats(1, 1, 1, 0, 0, 0, 0, List.of()), List.of(), 0, 0, 0, 0, 0, 0, List.of());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (MvStateStore store = MvStateStore.open(dir.resolve("state.mv.db"))) {
            store.write(new StateKey("acme", "handler:a", "a"), new byte[100]).toCompletableFuture()
                    .get(10, TimeUnit.SECONDS);

            new StatsCommands(() -> snapshot, null, store, new ManualClock())
                    .stats(new PrintStream(bytes, true, StandardCharsets.UTF_8), false);
        }

        String[] lines = bytes.toString(StandardCharsets.UTF_8).split("\n");
        assertEquals("stalls        0", lines[5]);
        assertTrue(lines[6].matches("store         0\\.0 writes/s  1 writes \\(100 B\\)  1 syncs  "
                + "write p99 \\d+\\.\\d ms  1 stored \\(100 B\\)"), lines[6]);
    }
}
