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
        boolean quick = false;
        String distribution = null;
        String warmup = null;
        String duration = null;
        List<Shape> shapes = Shape.STANDARD;
        List<ServerKind> servers = List.of(ServerKind.values());
        String jvmOptions = NetworkSuite.DEFAULT_JVM_OPTS;
        int rounds = 1;
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
                case "--warmup" -> warmup = value;
                case "--duration" -> duration = value;
                case "--shapes" -> shapes = Shape.parseList(value);
                case "--servers" -> servers = parseServers(value);
                case "--jvm-opts" -> jvmOptions = value;
                case "--rounds" -> rounds = Integer.parseInt(value);
                default -> throw new IllegalArgumentException("unknown option " + arg);
            }
        }
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
