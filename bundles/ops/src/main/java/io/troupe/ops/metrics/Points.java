package io.troupe.ops.metrics;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.Unit;

/**
 * The data points and single-point families the collectors build, in one line each instead of a builder chain.
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
final class Points {

    private Points() {
    }

    /** A counter's value under {@code labels}. */
    static CounterDataPointSnapshot counter(Labels labels, double value) {
        return CounterDataPointSnapshot.builder().labels(labels).value(value).build();
    }

    /** A gauge's value under {@code labels}. */
    static GaugeDataPointSnapshot gauge(Labels labels, double value) {
        return GaugeDataPointSnapshot.builder().labels(labels).value(value).build();
    }

    /** A counter family of one point; {@code name} without {@code _total}, which the writers add. */
    static CounterSnapshot counter(String name, String help, Unit unit, Labels labels, double value) {
        CounterSnapshot.Builder family = CounterSnapshot.builder().name(name).help(help).dataPoint(counter(labels,
                value));
        return unit == null ? family.build() : family.unit(unit).build();
    }

    /** A gauge family of one point. */
    static GaugeSnapshot gauge(String name, String help, Unit unit, Labels labels, double value) {
        GaugeSnapshot.Builder family = GaugeSnapshot.builder().name(name).help(help).dataPoint(gauge(labels, value));
        return unit == null ? family.build() : family.unit(unit).build();
    }

    /** Nanoseconds in seconds. */
    static double seconds(long nanos) {
        return Unit.nanosToSeconds(nanos);
    }
}
