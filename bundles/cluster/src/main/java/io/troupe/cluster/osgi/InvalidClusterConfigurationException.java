package io.troupe.cluster.osgi;

import java.util.List;
import java.util.stream.Collectors;

import io.troupe.config.ConfigurationProblem;

/**
 * The configuration {@value ClusterConfiguration#PID} cannot be used: the node does not join. Carries one
 * {@link ConfigurationProblem} per bad key, each naming the file, the key, the value and the reason.
 *
 * <p><b>Threading:</b> immutable once thrown.
 */
public final class InvalidClusterConfigurationException extends Exception {

    private static final long serialVersionUID = 1L;

    private final transient List<ConfigurationProblem> problems;

    InvalidClusterConfigurationException(List<ConfigurationProblem> problems) {
        super(problems.stream().map(ConfigurationProblem::toString).collect(Collectors.joining("; ")));
        this.problems = List.copyOf(problems);
    }

    /** The bad keys, in the order of the configuration's schema. */
    public List<ConfigurationProblem> problems() {
        return problems;
    }
}
