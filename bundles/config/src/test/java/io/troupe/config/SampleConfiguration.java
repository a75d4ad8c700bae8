package io.troupe.config;

/**
 * A property type with the kinds of attribute the server's and tenants' models do not have yet
 * (options, a boolean, a list, a dotted key, a required string without default), and an optional
 * ({@code required = false}) attribute of each type: an integer, a long, a boolean, a double, a string
 * with options, a list of integers, a string. bnd does not process test classes: its metatype document
 * is written by hand in {@code src/test/resources/OSGI-INF/metatype/}, in the form bnd writes for the
 * main classes.
 *
 * <p><b>Threading:</b> the views are immutable.
 */
@interface SampleConfiguration {

    String level() default "INFO";

    boolean enabled() default true;

    String[] tags() default {"a"};

    int workers_max() default 8;

    String name();

    int limit() default 0;

    long budget() default 1024L;

    boolean verbose() default false;

    double ratio() default 0.5;

    String mode() default "none";

    int[] ports() default {80};

    String comment() default "none";
}
