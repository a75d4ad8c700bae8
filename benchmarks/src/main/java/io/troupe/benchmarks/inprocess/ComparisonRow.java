package io.troupe.benchmarks.inprocess;

import java.util.Locale;

/**
 * One line of the suite's table: a measurement on both runtimes, their ratio (oriented so that above
 * 1.0 means Troupe is better) and whether the target is met.
 *
 * <p><b>Threading:</b> immutable.
 *
 * @param label  what was measured, with its unit
 * @param troupe Troupe's value
 * @param pekko  Pekko's value
 * @param ratio  Troupe's advantage: higher-is-better values divide Troupe by Pekko, lower-is-better ones Pekko by Troupe
 * @param target the target, as text
 * @param met    whether Troupe meets it
 */
record ComparisonRow(String label, double troupe, double pekko, double ratio, String target, boolean met) {

    /** A throughput-like row (higher is better) with a minimum ratio. */
    static ComparisonRow higherIsBetter(String label, double troupe, double pekko, double minRatio) {
        double ratio = troupe / pekko;
        return new ComparisonRow(label, troupe, pekko, ratio,
                String.format(Locale.ROOT, "≥ %.1f×", minRatio), ratio >= minRatio);
    }

    /** A time-like row (lower is better) with a minimum advantage. */
    static ComparisonRow lowerIsBetter(String label, double troupe, double pekko, double minRatio) {
        double ratio = pekko / troupe;
        return new ComparisonRow(label, troupe, pekko, ratio,
                String.format(Locale.ROOT, "≥ %.1f×", minRatio), ratio >= minRatio);
    }

    /** A row whose target is an absolute ceiling on Troupe's value. */
    static ComparisonRow ceiling(String label, double troupe, double pekko, double max, String unit) {
        return new ComparisonRow(label, troupe, pekko, pekko / troupe,
                String.format(Locale.ROOT, "≤ %.0f %s", max, unit), troupe <= max);
    }

    String markdown() {
        return String.format(Locale.ROOT, "| %s | %s | %s | %.2f× | %s | %s |", label, format(troupe), format(pekko),
                ratio, target, met ? "yes" : "**no**");
    }

    private static String format(double value) {
        if (value >= 1000) {
            return String.format(Locale.ROOT, "%,.0f", value);
        }
        return String.format(Locale.ROOT, "%.2f", value);
    }
}
