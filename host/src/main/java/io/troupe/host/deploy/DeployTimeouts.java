package io.troupe.host.deploy;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

import io.troupe.config.CheckedConfiguration;
import io.troupe.config.ConfigurationCheck;
import io.troupe.config.ConfigurationSource;

/**
 * The deployer's bounds on a plugin's own code, as {@link DeploySettings} defines them.
 *
 * <p><b>Threading:</b> immutable.
 *
 * @param start how long a plugin's start is waited for before it is reported and left to finish on its own
 * @param stop  how long a plugin's stop, update or uninstall is waited for before its thread is released
 */
record DeployTimeouts(Duration start, Duration stop) {

    /** Interrupting a stuck operation: how long it is given to give up. */
    static final Duration INTERRUPT_GRACE = Duration.ofSeconds(1);
    /** Stopping its thread ({@link Thread#stop()}): how long it is given to unwind. */
    static final Duration STOP_GRACE = Duration.ofSeconds(1);

    /** Every key at its default. */
    static DeployTimeouts defaults() {
        return of(ConfigurationCheck.of(DeploySettings.class).defaults().typed());
    }

    /**
     * The checked settings among {@code properties} (framework properties by key); each problem (key, value,
     * reason, the value kept) goes to {@code problems}.
     */
    static DeployTimeouts read(UnaryOperator<String> properties, Consumer<String> problems) {
        ConfigurationCheck<DeploySettings> check = ConfigurationCheck.of(DeploySettings.class);
        Map<String, Object> raw = new HashMap<>();
        for (String key : check.schema().attributes().keySet()) {
            String value = properties.apply(key);
            if (value != null && !value.isBlank()) {
                raw.put(key, value.strip());
            }
        }
        CheckedConfiguration<DeploySettings> checked = check.check(raw, Map.of(),
                ConfigurationSource.describedAs("framework properties"), ConfigurationCheck.Fallback.PREVIOUS_VALUE);
        checked.problems().forEach(problem -> problems.accept(problem.toString()));
        return of(checked.typed());
    }

    private static DeployTimeouts of(DeploySettings settings) {
        return new DeployTimeouts(Duration.ofSeconds(settings.troupe_deploy_startTimeoutSeconds()),
                Duration.ofSeconds(settings.troupe_deploy_stopTimeoutSeconds()));
    }
}
