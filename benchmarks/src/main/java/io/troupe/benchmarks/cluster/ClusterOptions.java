package io.troupe.benchmarks.cluster;

import java.time.Duration;

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
 */
record ClusterOptions(String distribution, int tenants, int clientsPerTenant, int rate, int window, Duration warmup,
        Duration phase, String jvmOptions) {

    static final String DEFAULT_JVM_OPTS = "-Xms256m -Xmx512m";

    /**
     * @throws IllegalArgumentException naming the option that is unknown, lacks a value or has a bad one
     */
    static ClusterOptions parse(String[] args) {
        boolean quick = false;
        String distribution = null;
        int tenants = 12;
        int clients = 2;
        int rate = 300;
        int window = 8;
        Duration warmup = null;
        Duration phase = null;
        String jvmOptions = DEFAULT_JVM_OPTS;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--quick")) {
                quick = true;
                continue;
            }
            if (i + 1 == args.length) {
                throw new IllegalArgumentException("unknown option or missing value: " + arg);
            }
            String value = args[++i];
            switch (arg) {
                case "--distribution" -> distribution = value;
                case "--tenants" -> tenants = positive(arg, value, 1000);
                case "--clients" -> clients = positive(arg, value, 64);
                case "--rate" -> rate = positive(arg, value, 1_000_000);
                case "--window" -> window = positive(arg, value, 1024);
                case "--warmup" -> warmup = seconds(arg, value);
                case "--phase" -> phase = seconds(arg, value);
                case "--jvm-opts" -> jvmOptions = value;
                default -> throw new IllegalArgumentException("unknown option " + arg);
            }
        }
        if (warmup == null) {
            warmup = Duration.ofSeconds(quick ? 3 : 10);
        }
        if (phase == null) {
            phase = Duration.ofSeconds(quick ? 5 : 20);
        }
        return new ClusterOptions(distribution, tenants, clients, rate, window, warmup, phase, jvmOptions);
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
