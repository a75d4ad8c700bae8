package io.troupe.shell;

/**
 * Why a {@code deploy}, {@code update} or {@code remove} command did nothing: an error code, one of
 * the constants here, and a detail for the user. The command prints it as
 * {@code ERROR <code>: <detail>}.
 *
 * <p><b>Threading:</b> immutable.
 */
final class DeployException extends Exception {

    private static final long serialVersionUID = 1L;

    /** The framework property naming the deploy folder is not set. */
    static final String DEPLOY_UNAVAILABLE = "deploy.unavailable";
    /** An argument is not a usable plugin name or path. */
    static final String BAD_REQUEST = "bad.request";
    /** The file is not a readable jar with a Bundle-SymbolicName. */
    static final String NOT_A_BUNDLE = "not.a.bundle";
    /** {@code deploy} would add a plugin that is already there. */
    static final String PLUGIN_EXISTS = "plugin.exists";
    /** {@code update} or {@code remove} names a plugin that is not there. */
    static final String NO_PLUGIN = "no.plugin";
    /** {@code update} would replace a plugin by another bundle. */
    static final String SYMBOLIC_NAME_MISMATCH = "symbolic.name.mismatch";
    /** Copying, renaming or deleting failed. */
    static final String IO_ERROR = "io.error";

    private final String code;

    DeployException(String code, String detail) {
        super(detail);
        this.code = code;
    }

    DeployException(String code, String detail, Throwable cause) {
        super(detail, cause);
        this.code = code;
    }

    String code() {
        return code;
    }

    String detail() {
        return getMessage();
    }
}
