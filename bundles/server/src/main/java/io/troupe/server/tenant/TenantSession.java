package io.troupe.server.tenant;

/**
 * A live session as its {@link Tenant} sees it: counted against the tenant's connection quota, told
 * when the tenant's limits change, and closed when the tenant goes away.
 *
 * <p><b>Threading:</b> both methods are called on a configuration thread and must only hand the work
 * to the session's own thread.
 */
public interface TenantSession {

    /** The tenant's configuration was deleted: the session says BYE with {@code reason} and closes. */
    void tenantRemoved(Tenant tenant, String reason);

    /** The tenant's limits changed: the session applies them (its frame limit) within a second. */
    default void tenantChanged(Tenant tenant) {
    }
}
