package io.troupe.benchmarks.net;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The command line of {@link NetworkSuite}.
 *
 * <p><b>Threading:</b> immutable; any thread.
 *
 * @param distribution the {@code --distribution} directory, or null to look for it
 * @param warmup       unmeasured time per run, as troupe-client takes it ({@code 3s})
 * @param duration     measured time per run
 * @param shapes       the shapes to run
 * @param servers      the servers to run them against
 * @param jvmOptions   the options of every server JVM
 * @param rounds       how many times every shape runs against every server
 * @param lightRates   the request rates of the light-load runs (CPU per request), empty for none
 */
record SuiteOptions(String distribution, String warmup, String duration, List<Shape> shapes,
        List<ServerKind> servers, String jvmOptions, int rounds, List<Integer> lightRates) {

    /** The rates of the issue: a quiet client, a busy one, a loaded server ({@code --quick}: 1 000 only). */
    static final List<Integer> LIGHT_RATES = List.of(100, 1_000, 10_000);

    static SuiteOptions parse(String[] args) {
        String distribution = null;
        String warmup = null;
        String duration = null;
        List<Shape> shapes = Shape.STANDARD;
        List<ServerKind> servers = List.of(ServerKind.values());
        String jvmOptions = NetworkSuite.DEFAULT_JVM_OPTS;
        int rounds = 1;
        List<Integer> lightRates = LIGHT_RATES;
        OptionArgs options = new OptionArgs(args);
        while (options.next()) {
            switch (options.name()) {
                case "--distribution" -> distribution = options.value();
                case "--warmup" -> warmup = options.value();
                case "--duration" -> duration = options.value();
                case "--shapes" -> shapes = Shape.parseList(options.value());
                case "--servers" -> servers = parseServers(options.value());
                case "--jvm-opts" -> jvmOptions = options.value();
                case "--rounds" -> rounds = Integer.parseInt(options.value());
                case "--light-rates" -> lightRates = parseRates(options.value());
                default -> throw options.unknown();
            }
        }
        boolean quick = options.quick();
        if (quick && lightRates == LIGHT_RATES) {
            lightRates = List.of(1_000);
        }
        if (rounds < 1) {
            throw new IllegalArgumentException("--rounds must be at least 1");
        }
        return new SuiteOptions(distribution, warmup != null ? warmup : quick ? "1s" : "3s",
                duration != null ? duration : quick ? "1s" : "10s", shapes, servers, jvmOptions, rounds, lightRates);
    }

    /** {@code 100,1000}, or {@code none}. */
    private static List<Integer> parseRates(String text) {
        if (text.equals("none")) {
            return List.of();
        }
        List<Integer> rates = new ArrayList<>();
        for (String item : text.split(",")) {
            int rate = Integer.parseInt(item.trim());
            if (rate < 1) {
                throw new IllegalArgumentException("--light-rates are requests/s of at least 1, not " + rate);
            }
            rates.add(rate);
        }
        return rates;
    }

    private static List<ServerKind> parseServers(String text) {
        List<ServerKind> servers = new ArrayList<>();
        for (String name : text.split(",")) {
            servers.add(ServerKind.valueOf(name.trim().toUpperCase(Locale.ROOT).replace('-', '_')));
        }
        return servers;
    }
}
