package io.troupe.server.tenant;

/**
 * A live session as its {@link Tenant} sees it: counted against the tenant's connection quota, and
 * closed when the tenant goes away.
 *
 * <p><b>Threading:</b> {@link #tenantRemoved} is called on a configuration thread and must only hand
 * the work to the session's own thread.
 */
public interface TenantSession {

    /** The tenant's configuration was deleted: the session says BYE and closes. */
    void tenantRemoved(Tenant tenant);
}
