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
 */
record SuiteOptions(String distribution, String warmup, String duration, List<Shape> shapes,
        List<ServerKind> servers, String jvmOptions, int rounds) {

    static SuiteOptions parse(String[] args) {
        String distribution = null;
        String warmup = null;
        String duration = null;
        List<Shape> shapes = Shape.STANDARD;
        List<ServerKind> servers = List.of(ServerKind.values());
        String jvmOptions = NetworkSuite.DEFAULT_JVM_OPTS;
        int rounds = 1;
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
                default -> throw options.unknown();
            }
        }
        boolean quick = options.quick();
        if (rounds < 1) {
            throw new IllegalArgumentException("--rounds must be at least 1");
        }
        return new SuiteOptions(distribution, warmup != null ? warmup : quick ? "1s" : "3s",
                duration != null ? duration : quick ? "1s" : "10s", shapes, servers, jvmOptions, rounds);
    }

    private static List<ServerKind> parseServers(String text) {
        List<ServerKind> servers = new ArrayList<>();
        for (String name : text.split(",")) {
            servers.add(ServerKind.valueOf(name.trim().toUpperCase(Locale.ROOT).replace('-', '_')));
        }
        return servers;
    }
}
