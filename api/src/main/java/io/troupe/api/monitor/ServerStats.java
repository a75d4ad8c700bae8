package io.troupe.api.monitor;

import java.util.List;

import org.osgi.annotation.versioning.ProviderType;

/**
 * The message server's measurements, registered as an OSGi service by the server bundle while it
 * runs (a runtime without the server has none).
 *
 * <p><b>Threading:</b> {@link #tenants()} from any thread; it reads counters and never blocks on
 * an IO loop.
 */
@ProviderType
public interface ServerStats {

    /** Every configured tenant, sorted by id. */
    List<TenantStats> tenants();
}
