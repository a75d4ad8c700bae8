package io.troupe.server.tenant;

/**
 * A tenant configuration that cannot be used. The message names the configuration's source (its
 * file, or its PID) and the problem, ready for the log.
 *
 * <p><b>Threading:</b> immutable.
 */
public final class TenantConfigException extends Exception {

    private static final long serialVersionUID = 1L;

    private final String source;
    private final String problem;

    TenantConfigException(String source, String problem) {
        super(source + ": " + problem, null, false, false);
        this.source = source;
        this.problem = problem;
    }

    /** The file or PID the configuration came from. */
    public String source() {
        return source;
    }

    /** What is wrong with it. */
    public String problem() {
        return problem;
    }
}
