package io.troupe.server;

import java.util.Comparator;
import java.util.List;

import io.troupe.api.monitor.ServerStats;
import io.troupe.api.monitor.TenantStats;
import io.troupe.server.tenant.Tenant;
import io.troupe.server.tenant.TenantConfig;
import io.troupe.server.tenant.TenantDirectory;
import io.troupe.server.tenant.TenantMetrics;

/**
 * The server's {@link ServerStats} service: each tenant's connections, requests, rate and errors,
 * read from its counters ({@link TenantMetrics}); the rates are those of the last window that
 * {@link TenantCommands}' sampler ended.
 *
 * <p><b>Threading:</b> {@link #tenants()} from any thread; it reads atomics and volatile fields.
 */
final class ServerStatistics implements ServerStats {

    private final TenantDirectory directory;

    ServerStatistics(TenantDirectory directory) {
        this.directory = directory;
    }

    @Override
    public List<TenantStats> tenants() {
        return directory.tenants().stream()
                .map(ServerStatistics::of)
                .sorted(Comparator.comparing(TenantStats::tenant))
                .toList();
    }

    /** One tenant's figures now. */
    static TenantStats of(Tenant tenant) {
        TenantConfig config = tenant.config();
        TenantMetrics metrics = tenant.metrics();
        return new TenantStats(tenant.id(), tenant.connections(), config.maxConnections(), metrics.requests(),
                metrics.ratePerSecond(), metrics.errors(), config.maxRequestsPerSecond());
    }
}
