package io.troupe.benchmarks.durable;

import java.util.List;

import io.troupe.benchmarks.net.OptionArgs;
import io.troupe.benchmarks.net.Shape;

/**
 * The command line of {@link DurabilitySuite}.
 *
 * <p><b>Threading:</b> immutable; any thread.
 *
 * @param distribution the {@code --distribution} directory, or null to look for it
 * @param warmup       unmeasured time per run, as troupe-client takes it ({@code 3s})
 * @param duration     measured time per run
 * @param shapes       the shapes to run
 * @param modes        the durability modes to run each shape in
 * @param jvmOptions   the options of the server JVM
 * @param rounds       how many times every shape runs in every mode
 */
record DurabilityOptions(String distribution, String warmup, String duration, List<Shape> shapes,
        List<DurabilityMode> modes, String jvmOptions, int rounds) {

    static final String DEFAULT_JVM_OPTS = "-Xms1g -Xmx1g -XX:+AlwaysPreTouch";

    DurabilityOptions {
        shapes = List.copyOf(shapes);
        modes = List.copyOf(modes);
    }

    /**
     * @throws IllegalArgumentException naming the option that is unknown, lacks a value or has a bad one
     */
    static DurabilityOptions parse(String[] args) {
        String distribution = null;
        String warmup = null;
        String duration = null;
        List<Shape> shapes = List.of(new Shape(1, 1, 64), new Shape(64, 16, 64));
        List<DurabilityMode> modes = List.of(DurabilityMode.values());
        String jvmOptions = DEFAULT_JVM_OPTS;
        Integer rounds = null;
        OptionArgs options = new OptionArgs(args);
        while (options.next()) {
            switch (options.name()) {
                case "--distribution" -> distribution = options.value();
                case "--warmup" -> warmup = options.value();
                case "--duration" -> duration = options.value();
                case "--shapes" -> shapes = Shape.parseList(options.value());
                case "--modes" -> modes = DurabilityMode.parseList(options.value());
                case "--jvm-opts" -> jvmOptions = options.value();
                case "--rounds" -> rounds = parseRounds(options.value());
                default -> throw options.unknown();
            }
        }
        boolean quick = options.quick();
        return new DurabilityOptions(distribution, warmup != null ? warmup : quick ? "1s" : "3s",
                duration != null ? duration : quick ? "1s" : "10s", shapes, modes, jvmOptions,
                rounds != null ? rounds : quick ? 1 : 3);
    }

    private static int parseRounds(String value) {
        int rounds;
        try {
            rounds = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--rounds takes a whole number, not '" + value + "'");
        }
        if (rounds < 1) {
            throw new IllegalArgumentException("--rounds must be at least 1, was " + rounds);
        }
        return rounds;
    }
}
