package io.troupe.host.monitor;

import java.time.Duration;
import java.util.Objects;

/**
 * The monitor's thresholds and periods.
 *
 * <p>Set from the host's configuration {@code io.troupe.host} ({@code etc/io.troupe.host.cfg}; the
 * typed model {@code io.troupe.host.HostConfiguration} holds each key's default and bounds):
 * {@code monitor.periodMillis} (250), {@code monitor.stallMillis} (2000),
 * {@code monitor.loopStallMillis} (100), {@code workers.idleSeconds} (30) and
 * {@code monitor.summarySeconds} (60, 0 = off). A change restarts the monitor with new settings.
 *
 * <p><b>Threading:</b> immutable.
 *
 * @param period          how often the monitor samples heartbeats
 * @param stallThreshold  an actor turn running longer than this is reported, once
 * @param loopStallThreshold an IO loop that has not returned to its select for longer is reported, once
 * @param idlePeriod      workers above the configured size retire after the pool did not need them
 *                        for this long
 * @param summaryInterval period of the summary line in the log; {@link Duration#ZERO} turns it off
 * @param statsWindow     the window busy ratios are measured over
 */
public record MonitorSettings(Duration period, Duration stallThreshold, Duration loopStallThreshold,
                              Duration idlePeriod, Duration summaryInterval, Duration statsWindow) {

    public static final Duration DEFAULT_PERIOD = Duration.ofMillis(250);
    public static final Duration DEFAULT_STALL = Duration.ofMillis(2000);
    public static final Duration DEFAULT_LOOP_STALL = Duration.ofMillis(100);
    public static final Duration DEFAULT_IDLE = Duration.ofSeconds(30);
    public static final Duration DEFAULT_SUMMARY = Duration.ofSeconds(60);
    public static final Duration DEFAULT_STATS_WINDOW = Duration.ofSeconds(1);

    public MonitorSettings {
        requirePositive(period, "period");
        requirePositive(stallThreshold, "stallThreshold");
        requirePositive(loopStallThreshold, "loopStallThreshold");
        requirePositive(idlePeriod, "idlePeriod");
        requirePositive(statsWindow, "statsWindow");
        Objects.requireNonNull(summaryInterval, "summaryInterval");
        if (summaryInterval.isNegative()) {
            throw new IllegalArgumentException("summaryInterval must not be negative, was " + summaryInterval);
        }
    }

    /** The defaults of the table above. */
    public static MonitorSettings defaults() {
        return new MonitorSettings(DEFAULT_PERIOD, DEFAULT_STALL, DEFAULT_LOOP_STALL, DEFAULT_IDLE, DEFAULT_SUMMARY,
                DEFAULT_STATS_WINDOW);
    }

    public MonitorSettings withPeriod(Duration value) {
        return new MonitorSettings(value, stallThreshold, loopStallThreshold, idlePeriod, summaryInterval, statsWindow);
    }

    public MonitorSettings withStallThreshold(Duration value) {
        return new MonitorSettings(period, value, loopStallThreshold, idlePeriod, summaryInterval, statsWindow);
    }

    public MonitorSettings withLoopStallThreshold(Duration value) {
        return new MonitorSettings(period, stallThreshold, value, idlePeriod, summaryInterval, statsWindow);
    }

    public MonitorSettings withIdlePeriod(Duration value) {
        return new MonitorSettings(period, stallThreshold, loopStallThreshold, value, summaryInterval, statsWindow);
    }

    public MonitorSettings withSummaryInterval(Duration value) {
        return new MonitorSettings(period, stallThreshold, loopStallThreshold, idlePeriod, value, statsWindow);
    }

    public MonitorSettings withStatsWindow(Duration value) {
        return new MonitorSettings(period, stallThreshold, loopStallThreshold, idlePeriod, summaryInterval, value);
    }

    /** A duration for log lines: {@code 30 s}, or {@code 300 ms} when not whole seconds. */
    static String text(Duration duration) {
        return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + " s" : duration.toMillis() + " ms";
    }

    private static void requirePositive(Duration value, String name) {
        Objects.requireNonNull(value, name);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
    }
}
