package io.troupe.api.admin;

import java.util.Set;

import org.osgi.annotation.versioning.ProviderType;

/**
 * The message server's sessions, by tenant, as an operator acts on them: registered as an OSGi service by the
 * server bundle while it runs. The web console's "disconnect" calls it.
 *
 * <p><b>Threading:</b> any thread; no method blocks its caller (the sessions close on their own IO loops).
 */
@ProviderType
public interface TenantSessions {

    /** The reason a disconnected session's BYE carries. */
    String DISCONNECTED = "disconnected by an administrator";

    /** The configured tenants, sorted. */
    Set<String> tenants();

    /**
     * Closes every session of {@code tenant} open now: each says BYE {@value #DISCONNECTED} to its client and
     * closes. The tenant stays configured: its clients may connect again (a client library reconnects).
     *
     * @return the sessions told to close
     * @throws IllegalArgumentException when no tenant {@code tenant} is configured
     */
    int disconnect(String tenant);
}
