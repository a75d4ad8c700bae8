package io.troupe.distribution.longtier;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Whether a gauge sampled over a long run grows: the Theil-Sen slope (the median of the slopes between every
 * two samples, which a few outliers do not move) over the pairs of samples taken from the same process (a
 * server killed and started again begins afresh: a leak shows as growth within each life, not across them),
 * extrapolated over the run's span and compared with a tolerance: a relative one of the gauge's median and an
 * absolute floor. {@link Verdict#UP} is an upward trend; fewer than {@value #MIN_SAMPLES} samples, or no pair
 * from one process, give {@link Verdict#TOO_FEW}.
 *
 * <p><b>Threading:</b> immutable.
 *
 * @param metric  what was measured
 * @param verdict the conclusion
 * @param slope   units per hour, Theil-Sen
 * @param growth  the slope over the run's span, in units
 * @param median  the median of the samples
 * @param allowed the growth tolerated: max(relative * median, absolute)
 * @param samples how many samples were judged
 */
public record Trend(String metric, Verdict verdict, double slope, double growth, double median, double allowed,
        int samples) {

    /** The least number of samples a verdict needs. */
    public static final int MIN_SAMPLES = 6;

    /** The conclusions. */
    public enum Verdict {
        /** No growth beyond the tolerance (it may fall). */
        FLAT,
        /** It grows beyond the tolerance. */
        UP,
        /** Too few samples to say. */
        TOO_FEW
    }

    /**
     * One sample: when (seconds since the run began), from which process, and its value.
     *
     * @param seconds when, seconds since the run began
     * @param process which life of the server it was taken from (its pid)
     * @param value   the gauge
     */
    public record Point(double seconds, long process, double value) {
    }

    /** The trend of {@code points} with the tolerance {@code max(relative * median, absolute)}. */
    public static Trend of(String metric, List<Point> points, double relative, double absolute) {
        List<Double> values = new ArrayList<>();
        points.forEach(point -> values.add(point.value()));
        double median = median(values);
        double allowed = Math.max(relative * median, absolute);
        List<Double> slopes = new ArrayList<>();
        for (int i = 0; i < points.size(); i++) {
            for (int j = i + 1; j < points.size(); j++) {
                Point a = points.get(i);
                Point b = points.get(j);
                if (a.process() == b.process() && b.seconds() != a.seconds()) {
                    slopes.add((b.value() - a.value()) / (b.seconds() - a.seconds()));
                }
            }
        }
        if (points.size() < MIN_SAMPLES || slopes.isEmpty()) {
            return new Trend(metric, Verdict.TOO_FEW, Double.NaN, Double.NaN, median, allowed, points.size());
        }
        double perSecond = median(slopes);
        double span = points.get(points.size() - 1).seconds() - points.get(0).seconds();
        double growth = perSecond * span;
        return new Trend(metric, growth > allowed ? Verdict.UP : Verdict.FLAT, perSecond * 3600, growth, median,
                allowed, points.size());
    }

    private static double median(List<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
    }

    @Override
    public String toString() {
        if (verdict == Verdict.TOO_FEW) {
            return String.format("%-12s TOO_FEW  (%d samples; at least %d from one life of the server are needed)",
                    metric, samples, MIN_SAMPLES);
        }
        return String.format("%-12s %-8s slope %+.4g/h, growth over the run %+.4g (allowed %.4g), median %.4g,"
                + " %d samples", metric, verdict, slope, growth, allowed, median, samples);
    }
}
