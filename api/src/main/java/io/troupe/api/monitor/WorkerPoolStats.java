package io.troupe.api.monitor;

import java.util.List;

/**
 * The worker pool: its size and bounds, and what its threads do.
 *
 * <p><b>Threading:</b> immutable; share it freely.
 *
 * @param current   workers now (the monitor adds workers while turns are stalled, and retires the
 *                  extra ones after an idle period)
 * @param min       the configured size ({@code troupe.workers}); the pool never shrinks below it
 * @param max       the most workers the pool may grow to ({@code troupe.workers.max})
 * @param busy      workers in the middle of an actor turn now
 * @param stalled   workers whose current turn has run longer than the stall threshold
 * @param queued    runnable actors waiting for a worker now
 * @param busyRatio the mean busy ratio of {@code threads}, between 0 and 1
 * @param threads   one entry per worker thread
 */
public record WorkerPoolStats(int current, int min, int max, int busy, int stalled, int queued,
                              double busyRatio, List<ThreadStats> threads) {

    public WorkerPoolStats {
        threads = List.copyOf(threads);
    }
}
