package io.troupe.api.monitor;

import java.util.List;
import java.util.Objects;

/**
 * A histogram of request latencies (since 1.4): how many requests took at most each bucket bound, as
 * counted since the counting began, with fixed bounds (the Troupe server uses a log scale, 1-2-5 per
 * decade from 10 µs to 50 s).
 *
 * <pre>
 *   boundsNanos   10µs   20µs   50µs  ...  50s
 *   counts      [  c0  |  c1  |  c2  | ... | cN-1 | cN ]    cN: above the last bound (+Inf)
 *               (0,10µs] (10µs,20µs]          (.., 50s]  (50s, +Inf)
 * </pre>
 *
 * The counts are per bucket, not cumulative. Percentiles are estimated as Prometheus's
 * {@code histogram_quantile} does: linearly within the bucket holding the rank, so their precision is the
 * bucket's width (a factor of 2 to 2.5 here). Two readings taken apart give the latencies of the time
 * between them with {@link #since}.
 *
 * <p><b>Threading:</b> immutable.
 *
 * @param boundsNanos the upper bounds of the buckets, in nanoseconds, strictly increasing and positive
 * @param counts      the requests that fell in each bucket: one more entry than {@code boundsNanos}, the
 *                    last for the requests above the last bound
 * @param sumNanos    the latencies of all counted requests added up, in nanoseconds
 */
public record RequestLatency(List<Long> boundsNanos, List<Long> counts, long sumNanos) {

    private static final double SECOND_NANOS = 1_000_000_000.0;
    private static final RequestLatency NONE = new RequestLatency(List.of(), List.of(0L), 0L);

    public RequestLatency {
        boundsNanos = List.copyOf(boundsNanos);
        counts = List.copyOf(counts);
        if (counts.size() != boundsNanos.size() + 1) {
            throw new IllegalArgumentException("a latency histogram with " + boundsNanos.size() + " bounds needs "
                    + (boundsNanos.size() + 1) + " counts, not " + counts.size());
        }
        long previous = 0;
        for (long bound : boundsNanos) {
            if (bound <= previous) {
                throw new IllegalArgumentException("latency bounds must be positive and strictly increasing: "
                        + boundsNanos);
            }
            previous = bound;
        }
        for (long count : counts) {
            if (count < 0) {
                throw new IllegalArgumentException("negative latency count in " + counts);
            }
        }
    }

    /** A histogram with no bucket but the last and no request: for tenants nothing measures. */
    public static RequestLatency none() {
        return NONE;
    }

    /** The requests counted: all buckets added up. */
    public long count() {
        long total = 0;
        for (long count : counts) {
            total += count;
        }
        return total;
    }

    /** {@link #sumNanos} in seconds. */
    public double sumSeconds() {
        return sumNanos / SECOND_NANOS;
    }

    /** The upper bound of bucket {@code index} in seconds; positive infinity for the last bucket. */
    public double boundSeconds(int index) {
        Objects.checkIndex(index, counts.size());
        return index == boundsNanos.size() ? Double.POSITIVE_INFINITY : boundsNanos.get(index) / SECOND_NANOS;
    }

    /**
     * The estimated latency, in seconds, below which the fraction {@code quantile} of the requests fell: for
     * example {@code quantileSeconds(0.99)} for the 99th percentile. Interpolated linearly inside the bucket
     * holding the rank (from 0 for the first bucket); a rank in the last bucket, above every bound, gives the
     * last bound.
     *
     * @param quantile between 0 and 1
     * @return the estimate, or {@link Double#NaN} when no request was counted
     * @throws IllegalArgumentException when {@code quantile} is outside [0, 1]
     */
    public double quantileSeconds(double quantile) {
        if (!(quantile >= 0 && quantile <= 1)) {
            throw new IllegalArgumentException("a quantile is between 0 and 1, not " + quantile);
        }
        long total = count();
        if (total == 0) {
            return Double.NaN;
        }
        double rank = quantile * total;
        long below = 0;
        for (int i = 0; i < boundsNanos.size(); i++) {
            long inBucket = counts.get(i);
            if (inBucket > 0 && below + inBucket >= rank) {
                double lower = i == 0 ? 0 : boundsNanos.get(i - 1);
                double upper = boundsNanos.get(i);
                double fraction = Math.max(0, rank - below) / inBucket;
                return (lower + (upper - lower) * fraction) / SECOND_NANOS;
            }
            below += inBucket;
        }
        return boundsNanos.isEmpty() ? Double.NaN : boundsNanos.get(boundsNanos.size() - 1) / SECOND_NANOS;
    }

    /**
     * The requests counted after {@code earlier} was read, from the same histogram: each bucket's count and
     * the sum minus {@code earlier}'s.
     *
     * @throws IllegalArgumentException when the bounds differ, or {@code earlier} has more in a bucket (it is
     *                                  not an earlier reading of the same histogram)
     */
    public RequestLatency since(RequestLatency earlier) {
        if (!boundsNanos.equals(earlier.boundsNanos)) {
            throw new IllegalArgumentException("latency histograms with different bounds: " + boundsNanos + " and "
                    + earlier.boundsNanos);
        }
        Long[] difference = new Long[counts.size()];
        for (int i = 0; i < difference.length; i++) {
            long delta = counts.get(i) - earlier.counts.get(i);
            if (delta < 0) {
                throw new IllegalArgumentException("the earlier reading has more requests in bucket " + i + " ("
                        + earlier.counts.get(i) + " > " + counts.get(i)
                        + "): not an earlier reading of this histogram");
            }
            difference[i] = delta;
        }
        return new RequestLatency(boundsNanos, List.of(difference), Math.max(0, sumNanos - earlier.sumNanos));
    }
}
