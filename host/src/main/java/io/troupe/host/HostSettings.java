package io.troupe.host;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

import io.troupe.config.CheckedConfiguration;
import io.troupe.config.ConfigurationCheck;
import io.troupe.config.ConfigurationSource;
import io.troupe.host.monitor.ActorPoolSettings;
import io.troupe.host.monitor.MonitorSettings;

/**
 * The host's runtime-tunable settings resolved from a checked {@link HostConfiguration}: worker
 * bounds with {@code 0} turned into their per-core defaults, the worker spin, and the settings of
 * the monitor and of the actor pools.
 *
 * <p><b>Threading:</b> immutable; any thread.
 *
 * @param workers    the worker pool's least size
 * @param workersMax the most workers the monitor may run
 * @param workerSpin how long a worker out of work polls before it parks
 * @param monitor    the monitor's thresholds and periods
 * @param pools      when actor pools grow and shrink
 */
public record HostSettings(int workers, int workersMax, Duration workerSpin, MonitorSettings monitor,
                           ActorPoolSettings pools) {

    /** The prefix a key of {@link HostConfiguration} had as a framework property. */
    static final String FRAMEWORK_PREFIX = "troupe.";

    static final ConfigurationCheck<HostConfiguration> CHECK = ConfigurationCheck.of(HostConfiguration.class);

    /**
     * The values of the framework properties {@code troupe.<key>} for the keys of
     * {@link HostConfiguration}, checked: the initial values, before ConfigAdmin delivers
     * {@value HostConfiguration#PID}.
     */
    static CheckedConfiguration<HostConfiguration> fromFrameworkProperties(Function<String, String> property) {
        Map<String, Object> raw = new LinkedHashMap<>();
        for (String key : CHECK.schema().attributes().keySet()) {
            String value = property.apply(FRAMEWORK_PREFIX + key);
            if (value != null && !value.isBlank()) {
                raw.put(key, value);
            }
        }
        return CHECK.check(raw, Map.of(), ConfigurationSource.describedAs("framework properties (troupe.<key>)"),
                ConfigurationCheck.Fallback.PREVIOUS_VALUE);
    }

    /**
     * The settings of {@code config}, on a machine with {@code cores} processors.
     *
     * @param warnings receives a line for a combination of values that is adjusted (a maximum below
     *                 the minimum)
     */
    static HostSettings of(HostConfiguration config, int cores, Consumer<String> warnings) {
        int workers = config.workers() == 0 ? cores : config.workers();
        int max = config.workers_max() == 0 ? Math.max(workers, 4 * cores) : config.workers_max();
        if (max < workers) {
            warnings.accept("workers.max=" + max + " is below workers=" + workers + "; the pool keeps " + workers
                    + " workers");
            max = workers;
        }
        MonitorSettings monitor = MonitorSettings.defaults()
                .withPeriod(Duration.ofMillis(config.monitor_periodMillis()))
                .withStallThreshold(Duration.ofMillis(config.monitor_stallMillis()))
                .withLoopStallThreshold(Duration.ofMillis(config.monitor_loopStallMillis()))
                .withIdlePeriod(Duration.ofSeconds(config.workers_idleSeconds()))
                .withSummaryInterval(Duration.ofSeconds(config.monitor_summarySeconds()));
        ActorPoolSettings pools = ActorPoolSettings.defaults()
                .withHighWater(config.pool_highWater())
                .withGrowAfter(Duration.ofMillis(config.pool_growMillis()))
                .withIdlePeriod(Duration.ofSeconds(config.pool_idleSeconds()))
                .withCooldown(Duration.ofMillis(config.pool_cooldownMillis()));
        return new HostSettings(workers, max, Duration.ofNanos(1000L * config.workers_spinMicros()), monitor, pools);
    }

    /** Whether the monitor must be restarted to go from these settings to {@code next}. */
    boolean monitorDiffers(HostSettings next) {
        return !monitor.equals(next.monitor) || !pools.equals(next.pools) || workers != next.workers
                || workersMax != next.workersMax;
    }
}
