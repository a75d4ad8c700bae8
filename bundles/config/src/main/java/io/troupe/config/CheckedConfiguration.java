package io.troupe.config;

import java.lang.annotation.Annotation;
import java.util.List;
import java.util.Map;

/**
 * What {@link ConfigurationCheck#check} made of a configuration.
 *
 * <p><b>Threading:</b> immutable; any thread.
 *
 * @param typed    the accepted values as the component property type (absent keys: defaults)
 * @param values   the accepted values by key: pass them as {@code previous} to the next check
 * @param problems the values refused, in the order of the schema
 * @param unknown  keys that no attribute defines, sorted
 * @param <A>      the component property type
 */
public record CheckedConfiguration<A extends Annotation>(A typed, Map<String, Object> values,
                                                         List<ConfigurationProblem> problems,
                                                         List<String> unknown) {

    public CheckedConfiguration {
        values = Map.copyOf(values);
        problems = List.copyOf(problems);
        unknown = List.copyOf(unknown);
    }

    /** Whether every value was accepted. */
    public boolean valid() {
        return problems.isEmpty();
    }
}
