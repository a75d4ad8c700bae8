package io.troupe.server;

import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;
import java.util.function.IntSupplier;
import java.util.stream.Collectors;

import io.troupe.api.monitor.ServerStats;
import io.troupe.api.monitor.TenantStats;
import io.troupe.server.tenant.Tenant;
import io.troupe.server.tenant.TenantDirectory;
import io.troupe.server.tenant.TenantLimits;
import io.troupe.server.tenant.TenantMetrics;
import io.troupe.server.tenant.ThrottleLimit;

/**
 * The server's {@link ServerStats} service: each tenant's connections, requests, rate, errors by code,
 * request latency histogram, bytes, limits and throttling, read from its counters ({@link TenantMetrics}, its
 * {@link io.troupe.server.tenant.TenantThrottling}); the rates are those of the last window that
 * {@link TenantSampler} ended.
 *
 * <p><b>Threading:</b> {@link #tenants()} from any thread; it reads atomics and volatile fields.
 */
final class ServerStatistics implements ServerStats {

    private final TenantDirectory directory;
    private final IntSupplier serverMaxFrameBytes;

    /** @param serverMaxFrameBytes the server's frame limit now, which a tenant's can only lower */
    ServerStatistics(TenantDirectory directory, IntSupplier serverMaxFrameBytes) {
        this.directory = directory;
        this.serverMaxFrameBytes = serverMaxFrameBytes;
    }

    @Override
    public List<TenantStats> tenants() {
        int frameLimit = serverMaxFrameBytes.getAsInt();
        return directory.tenants().stream()
                .map(tenant -> of(tenant, frameLimit))
                .sorted(Comparator.comparing(TenantStats::tenant))
                .toList();
    }

    /** One tenant's figures now, under a server frame limit of {@code serverMaxFrameBytes}. */
    static TenantStats of(Tenant tenant, int serverMaxFrameBytes) {
        TenantLimits limits = tenant.config().limits();
        TenantMetrics metrics = tenant.metrics();
        return new TenantStats(tenant.id(), tenant.connections(), limits.maxConnections(), metrics.requests(),
                metrics.ratePerSecond(), metrics.errors(), limits.maxRequestsPerSecond(), metrics.bytesReceived(),
                tenant.throttling().throttledNanos(tenant.nanoTime()),
                tenant.throttling().throttledBy().stream().map(ThrottleLimit::key)
                        .collect(Collectors.toCollection(TreeSet::new)),
                limits.maxBytesPerSecond(), limits.frameLimit(serverMaxFrameBytes), limits.weight(),
                limits.maxActors(), limits.maxQueuedMessages(), limits.handlers(), metrics.errorsByCode(),
                metrics.latency().read());
    }
}
