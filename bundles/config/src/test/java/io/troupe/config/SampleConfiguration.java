package io.troupe.config;

/**
 * A property type with the kinds of attribute the server's and tenants' models do not have yet
 * (options, a boolean, a list, a dotted key, a required string without default). bnd does not
 * process test classes: its metatype document is written by hand in
 * {@code src/test/resources/OSGI-INF/metatype/}, in the form bnd writes for the main classes.
 *
 * <p><b>Threading:</b> the views are immutable.
 */
@interface SampleConfiguration {

    String level() default "INFO";

    boolean enabled() default true;

    String[] tags() default {"a"};

    int workers_max() default 8;

    String name();
}
