package io.troupe.benchmarks.tenants;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.troupe.benchmarks.net.OptionArgs;

/**
 * The command line of {@link TenantIsolationSuite}.
 *
 * <p><b>Threading:</b> immutable; any thread.
 *
 * @param quick        whether {@code --quick} was given (shorter default durations)
 * @param distribution the {@code --distribution} directory, or null to look for it
 * @param burnPlugin   the {@code --burn-plugin} jar, or null to look for it
 * @param warmup       unmeasured time before each window
 * @param duration     the measured window of each phase
 * @param scenarios    the scenarios to run, in order
 * @param jvmOptions   JAVA_OPTS of the server
 */
record SuiteOptions(boolean quick, String distribution, String burnPlugin, Duration warmup, Duration duration,
        List<Scenario> scenarios, String jvmOptions) {

    static final String DEFAULT_JVM_OPTS = "-Xms1g -Xmx1g -XX:+AlwaysPreTouch";
    private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m)");

    SuiteOptions {
        scenarios = List.copyOf(scenarios);
    }

    /** @throws IllegalArgumentException naming the option and what is wrong with it */
    static SuiteOptions parse(String[] args) {
        String distribution = null;
        String burnPlugin = null;
        Duration warmup = null;
        Duration duration = null;
        List<Scenario> scenarios = List.of(Scenario.values());
        String jvmOptions = DEFAULT_JVM_OPTS;
        OptionArgs options = new OptionArgs(args);
        while (options.next()) {
            switch (options.name()) {
                case "--distribution" -> distribution = options.value();
                case "--burn-plugin" -> burnPlugin = options.value();
                case "--warmup" -> warmup = duration(options.name(), options.value());
                case "--duration" -> duration = duration(options.name(), options.value());
                case "--scenarios" -> scenarios = Scenario.parseList(options.value());
                case "--jvm-opts" -> jvmOptions = options.value();
                default -> throw options.unknown();
            }
        }
        boolean quick = options.quick();
        if (duration != null && duration.isZero()) {
            throw new IllegalArgumentException("--duration must be more than 0");
        }
        return new SuiteOptions(quick, distribution, burnPlugin,
                warmup != null ? warmup : Duration.ofSeconds(quick ? 1 : 5),
                duration != null ? duration : Duration.ofSeconds(quick ? 1 : 20), scenarios, jvmOptions);
    }

    /** {@code 500ms}, {@code 5s}, {@code 1m}. */
    static Duration duration(String option, String text) {
        Matcher m = DURATION.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException(option + " takes a duration such as 500ms, 5s or 1m, not '" + text
                    + "'");
        }
        long amount = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            default -> Duration.ofMinutes(amount);
        };
    }

    /** {@code 500 ms}, {@code 5 s}, {@code 1.5 s}. */
    static String format(Duration duration) {
        long millis = duration.toMillis();
        if (millis < 1000) {
            return millis + " ms";
        }
        return millis % 1000 == 0 ? (millis / 1000) + " s" : String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
    }
}
