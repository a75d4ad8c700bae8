package io.troupe.benchmarks.features;

import java.time.Duration;
import java.util.List;

import io.troupe.benchmarks.net.OptionArgs;
import io.troupe.benchmarks.net.Shape;

/**
 * The command line of {@link FeatureCostSuite}.
 *
 * <p><b>Threading:</b> immutable; any thread.
 *
 * @param distribution the {@code --distribution} directory, or null to look for it
 * @param warmup       unmeasured time per run, as troupe-client takes it ({@code 3s})
 * @param duration     measured time per run
 * @param shapes       the shapes to run (each with at least two connections: the two-tenant run splits them)
 * @param features     the features to run each shape with, {@link Feature#PLAIN} first
 * @param scrapeEvery  how often {@code /metrics} is fetched during a metrics run
 * @param jvmOptions   the options of the server JVM
 * @param rounds       how many times every shape runs with every feature
 */
record FeatureOptions(String distribution, String warmup, String duration, List<Shape> shapes, List<Feature> features,
        Duration scrapeEvery, String jvmOptions, int rounds) {

    static final String DEFAULT_JVM_OPTS = "-Xms1g -Xmx1g -XX:+AlwaysPreTouch";

    FeatureOptions {
        shapes = List.copyOf(shapes);
        features = List.copyOf(features);
    }

    /**
     * @throws IllegalArgumentException naming the option that is unknown, lacks a value or has a bad one
     */
    static FeatureOptions parse(String[] args) {
        String distribution = null;
        String warmup = null;
        String duration = null;
        List<Shape> shapes = List.of(new Shape(64, 16, 64), new Shape(64, 1, 4096));
        List<Feature> features = List.of(Feature.values());
        Duration scrapeEvery = Duration.ofMillis(100);
        String jvmOptions = DEFAULT_JVM_OPTS;
        Integer rounds = null;
        OptionArgs options = new OptionArgs(args);
        while (options.next()) {
            switch (options.name()) {
                case "--distribution" -> distribution = options.value();
                case "--warmup" -> warmup = options.value();
                case "--duration" -> duration = options.value();
                case "--shapes" -> shapes = Shape.parseList(options.value());
                case "--features" -> features = Feature.parseList(options.value());
                case "--scrape-every-ms" -> scrapeEvery = Duration.ofMillis(positive("--scrape-every-ms", options.value()));
                case "--jvm-opts" -> jvmOptions = options.value();
                case "--rounds" -> rounds = positive("--rounds", options.value());
                default -> throw options.unknown();
            }
        }
        for (Shape shape : shapes) {
            if (shape.connections() < 2) {
                throw new IllegalArgumentException("shape " + shape.label() + " has one connection; the two-tenant "
                        + "run splits a shape's connections between the tenants, so every shape needs at least two");
            }
        }
        boolean quick = options.quick();
        return new FeatureOptions(distribution, warmup != null ? warmup : quick ? "1s" : "3s",
                duration != null ? duration : quick ? "1s" : "10s", shapes, features, scrapeEvery, jvmOptions,
                rounds != null ? rounds : quick ? 1 : 3);
    }

    private static int positive(String option, String value) {
        int number;
        try {
            number = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " takes a whole number, not '" + value + "'");
        }
        if (number < 1) {
            throw new IllegalArgumentException(option + " must be at least 1, was " + number);
        }
        return number;
    }
}
