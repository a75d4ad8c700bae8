package io.troupe.benchmarks.tenants;

import org.HdrHistogram.Histogram;

/**
 * What tenant B's closed loop measured in one window: its latency percentiles (send to reply, in
 * nanoseconds), how many requests were measured, and what went wrong.
 *
 * <p><b>Threading:</b> immutable; any thread.
 *
 * @param requests     requests measured (sent within the window)
 * @param p50          median latency
 * @param p90          90th percentile
 * @param p99          99th percentile
 * @param p999         99.9th percentile
 * @param max          the largest latency
 * @param errors       requests answered with an ERROR, a wrong corrId or wrong content
 * @param firstError   what the first of them was, or null
 * @param failure      why the loop stopped early, or null when it ran to the end
 */
record VictimResult(long requests, long p50, long p90, long p99, long p999, long max, long errors, String firstError,
        String failure) {

    static VictimResult of(Histogram histogram, long errors, String firstError, String failure) {
        if (histogram.getTotalCount() == 0) {
            return new VictimResult(0, 0, 0, 0, 0, 0, errors, firstError, failure);
        }
        return new VictimResult(histogram.getTotalCount(), histogram.getValueAtPercentile(50),
                histogram.getValueAtPercentile(90), histogram.getValueAtPercentile(99),
                histogram.getValueAtPercentile(99.9), histogram.getMaxValue(), errors, firstError, failure);
    }

    /** Whether the loop ran to the end of its window and measured something without errors. */
    boolean clean() {
        return failure == null && errors == 0 && requests > 0;
    }
}
