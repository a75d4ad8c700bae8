package io.troupe.shell;

/**
 * A tenant command that could not be done: a code for scripts and a detail for people, printed as
 * {@code ERROR <code>: <detail>}.
 *
 * <p><b>Threading:</b> immutable.
 */
final class TenantCommandException extends Exception {

    /** The id is not a valid tenant id. */
    static final String BAD_ID = "tenant.bad_id";
    /** {@code tenant-add} of a tenant whose file exists. */
    static final String EXISTS = "tenant.exists";
    /** {@code tenant-rotate-token} of a tenant without a file. */
    static final String UNKNOWN = "tenant.unknown";
    /** No installation directory: no {@code etc/} to write to. */
    static final String UNAVAILABLE = "tenant.unavailable";
    /** The file could not be read or written. */
    static final String IO = "tenant.io";
    /** The command's arguments are wrong. */
    static final String USAGE = "tenant.usage";

    private static final long serialVersionUID = 1L;

    private final String code;
    private final String detail;

    TenantCommandException(String code, String detail) {
        super(code + ": " + detail, null, false, false);
        this.code = code;
        this.detail = detail;
    }

    String code() {
        return code;
    }

    String detail() {
        return detail;
    }
}
