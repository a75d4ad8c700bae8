package io.troupe.client.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class BenchProgressTest {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final long START = 1_000 * SECOND;

    private final BenchResults results = new BenchResults();
    private final BenchProgress progress = new BenchProgress(results, START, START + 2 * SECOND);

    private static void times(int count, Runnable action) {
        for (int i = 0; i < count; i++) {
            action.run();
        }
    }

    @Test
    void duringTheWarmUpALineShowsTheWarmUpsLatenciesAndTheRateSinceTheStart() {
        times(99, () -> results.recordWarmUpLatency(TimeUnit.MICROSECONDS.toNanos(400)));
        results.recordWarmUpLatency(TimeUnit.MILLISECONDS.toNanos(3));

        assertEquals("troupe-client bench:   1s warm-up:       100 requests/s, p50 400 us, p99 400 us, errors 0",
                progress.line(START + SECOND));
    }

    @Test
    void inTheMeasuredWindowALineShowsOnlyItsLatenciesTheRateSinceThePreviousLineAndErrorsByCode() {
        times(50, () -> results.recordWarmUpLatency(TimeUnit.MILLISECONDS.toNanos(9)));
        progress.line(START + SECOND);
        times(300, () -> results.recordLatency(TimeUnit.MICROSECONDS.toNanos(250)));
        times(5, () -> results.recordLatency(TimeUnit.MILLISECONDS.toNanos(2)));
        results.recordError("timeout");
        results.recordError("mailbox.full");
        results.recordError("mailbox.full");

        assertEquals("troupe-client bench:   3s measuring:     153 requests/s, p50 250 us, p99 2.001 ms, errors 3 "
                + "(mailbox.full 2, timeout 1)", progress.line(START + 3 * SECOND));
    }

    @Test
    void aLineWithNothingAnsweredYetSaysSo() {
        assertEquals("troupe-client bench:   1s warm-up:         0 requests/s, p50 n/a, p99 n/a, errors 0",
                progress.line(START + SECOND));
    }
}
