package io.troupe.benchmarks.cluster;

import java.time.Duration;

import io.troupe.benchmarks.net.OptionArgs;

/**
 * The command line of {@link ClusterSuite}.
 *
 * <p><b>Threading:</b> immutable; any thread.
 *
 * @param distribution     the {@code --distribution} directory, or null to look for it
 * @param tenants          how many tenants share the load
 * @param clientsPerTenant connections per tenant
 * @param rate             requests per second offered in all (paced, spread over the connections)
 * @param window           requests in flight per connection at most
 * @param warmup           load before anything is measured
 * @param phase            steady load measured before the join, between the join and the leave, and after it
 * @param jvmOptions       the options of every node's JVM
 * @param keepLogs         the {@code --keep-logs} directory the nodes' logs are copied to at the end, or null
 */
record ClusterOptions(String distribution, int tenants, int clientsPerTenant, int rate, int window, Duration warmup,
        Duration phase, String jvmOptions, String keepLogs) {

    static final String DEFAULT_JVM_OPTS = "-Xms256m -Xmx512m";

    /**
     * @throws IllegalArgumentException naming the option that is unknown, lacks a value or has a bad one
     */
    static ClusterOptions parse(String[] args) {
        String distribution = null;
        int tenants = 12;
        int clients = 2;
        int rate = 300;
        int window = 8;
        Duration warmup = null;
        Duration phase = null;
        String jvmOptions = DEFAULT_JVM_OPTS;
        String keepLogs = null;
        OptionArgs options = new OptionArgs(args);
        while (options.next()) {
            switch (options.name()) {
                case "--distribution" -> distribution = options.value();
                case "--tenants" -> tenants = positive(options.name(), options.value(), 1000);
                case "--clients" -> clients = positive(options.name(), options.value(), 64);
                case "--rate" -> rate = positive(options.name(), options.value(), 1_000_000);
                case "--window" -> window = positive(options.name(), options.value(), 1024);
                case "--warmup" -> warmup = seconds(options.name(), options.value());
                case "--phase" -> phase = seconds(options.name(), options.value());
                case "--jvm-opts" -> jvmOptions = options.value();
                case "--keep-logs" -> keepLogs = options.value();
                default -> throw options.unknown();
            }
        }
        boolean quick = options.quick();
        if (warmup == null) {
            warmup = Duration.ofSeconds(quick ? 3 : 10);
        }
        if (phase == null) {
            phase = Duration.ofSeconds(quick ? 5 : 20);
        }
        return new ClusterOptions(distribution, tenants, clients, rate, window, warmup, phase, jvmOptions,
                keepLogs);
    }

    private static int positive(String option, String value, int max) {
        try {
            int parsed = Integer.parseInt(value);
            if (parsed >= 1 && parsed <= max) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException(option + " takes a whole number from 1 to " + max + ": " + value);
    }

    /** {@code 20s} or {@code 20}: whole seconds, 1 to 3600. */
    private static Duration seconds(String option, String value) {
        String digits = value.endsWith("s") ? value.substring(0, value.length() - 1) : value;
        return Duration.ofSeconds(positive(option, digits, 3600));
    }
}
