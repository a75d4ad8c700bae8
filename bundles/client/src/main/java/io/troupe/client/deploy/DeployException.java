package io.troupe.client.deploy;

/**
 * Why a change of the deploy folder did nothing, or why the host refused what was copied: an error
 * code, one of the constants here, and a detail for the user. Commands print it as
 * {@code ERROR <code>: <detail>}.
 *
 * <p><b>Threading:</b> immutable.
 */
public final class DeployException extends Exception {

    private static final long serialVersionUID = 1L;

    /** There is no deploy folder: not configured, missing, or not a directory. */
    public static final String DEPLOY_UNAVAILABLE = "deploy.unavailable";
    /** An argument is not a usable plugin name or path. */
    public static final String BAD_REQUEST = "bad.request";
    /** The file is not a readable jar with a Bundle-SymbolicName. */
    public static final String NOT_A_BUNDLE = "not.a.bundle";
    /** {@code deploy} would add a plugin that is already there. */
    public static final String PLUGIN_EXISTS = "plugin.exists";
    /** {@code update} or {@code remove} names a plugin that is not there. */
    public static final String NO_PLUGIN = "no.plugin";
    /** {@code update} would replace a plugin by another bundle. */
    public static final String SYMBOLIC_NAME_MISMATCH = "symbolic.name.mismatch";
    /** Copying, renaming, deleting or reading a status failed. */
    public static final String IO_ERROR = "io.error";
    /** The host judged the copied jar and refused it: nothing of it runs ({@link DeployStatus#reason()}). */
    public static final String DEPLOY_REJECTED = "deploy.rejected";
    /** The host wrote no outcome for the copied jar within the time allowed. */
    public static final String DEPLOY_TIMEOUT = "deploy.timeout";
    /** The host's status file cannot be understood (a key is missing or has a bad value). */
    public static final String BAD_STATUS = "deploy.status.invalid";

    private final String code;

    public DeployException(String code, String detail) {
        super(detail);
        this.code = code;
    }

    public DeployException(String code, String detail, Throwable cause) {
        super(detail, cause);
        this.code = code;
    }

    /** One of the constants of this class. */
    public String code() {
        return code;
    }

    /** One line for the user. */
    public String detail() {
        return getMessage();
    }
}
