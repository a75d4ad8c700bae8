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

    /**
     * An operator disconnects the tenant's sessions (the web console): the session says BYE with {@code reason}
     * and closes; the tenant stays configured. By default as {@link #tenantRemoved} does.
     */
    default void disconnect(Tenant tenant, String reason) {
        tenantRemoved(tenant, reason);
    }

    /** The tenant's limits changed: the session applies them (its frame limit) within a second. */
    default void tenantChanged(Tenant tenant) {
    }

    /**
     * The tenant is being handed over to another node of the cluster: the session reads nothing more
     * (what its client sends meanwhile waits unread), answers every request it accepted, then tells
     * {@code pause} so ({@link HandoverPause#drained}); it does too if it closes meanwhile or is not open.
     */
    void handOver(HandoverPause pause);

    /**
     * The tenant handed over is served at {@code address} now ({@code ""}: not known): an open session
     * says BYE {@code tenant.moved} with it and closes; any other does nothing.
     */
    void redirect(String address);
}
