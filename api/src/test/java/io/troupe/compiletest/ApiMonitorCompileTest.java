package io.troupe.compiletest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.troupe.api.monitor.HandlerStats;
import io.troupe.api.monitor.PoolStats;
import io.troupe.api.monitor.RequestLatency;
import io.troupe.api.monitor.RuntimeSnapshot;
import io.troupe.api.monitor.RuntimeStats;
import io.troupe.api.monitor.ServerStats;
import io.troupe.api.monitor.TenantLoad;
import io.troupe.api.monitor.TenantStats;
import io.troupe.api.monitor.ThreadStats;
import io.troupe.api.monitor.WorkerPoolStats;

/**
 * Compile-only test of the exported package {@code io.troupe.api.monitor} (1.4.0): the services
 * {@link RuntimeStats} and {@link ServerStats} are called as a consumer calls them, and every record's
 * constructors and accessors are used with their declared types, from outside the package.
 *
 * <p>Its value is that it compiles (see {@link ApiCompileTest} for why it exists beside bnd's baseline
 * check); the single test only lets the runner count the class. When the package gains a public
 * signature, add a use of it here.
 *
 * <p><b>Threading:</b> nothing here runs.
 */
class ApiMonitorCompileTest {

    @Test
    void compilesAgainstEveryPublicSignatureOfTheMonitorApi() {
        // Nothing to run: the class compiled. This names the package it covers, for the report.
        assertEquals("io.troupe.api.monitor", RuntimeStats.class.getPackageName());
    }

    static void useServices(RuntimeStats runtimeStats, ServerStats serverStats) {
        RuntimeSnapshot snapshot = runtimeStats.snapshot();
        List<TenantStats> tenants = serverStats.tenants();
        use(snapshot, tenants);
    }

    static void useRecords() {
        ThreadStats thread = new ThreadStats("troupe-worker-1", 0.5, 120L, false);
        use(thread.name(), thread.busyRatio(), thread.busyMillis(), thread.stalled());

        WorkerPoolStats workers = new WorkerPoolStats(2, 1, 8, 1, 0, 3, 0.5, List.of(thread));
        use(workers.current(), workers.min(), workers.max(), workers.busy(), workers.stalled(), workers.queued(),
                workers.busyRatio(), workers.threads());

        HandlerStats handler = new HandlerStats("echo", 1, 0L, 10L, 0L);
        use(handler.name(), handler.actors(), handler.mailboxDepth(), handler.processed(), handler.failures());

        PoolStats pool = new PoolStats("thumbnail", "acme", 2, 1, 8, 5L, 0);
        use(pool.handler(), pool.tenant(), pool.size(), pool.min(), pool.max(), pool.mailboxDepth(), pool.stalled());

        RuntimeSnapshot withPools = new RuntimeSnapshot(Instant.EPOCH, workers, List.of(thread), 0.1, 12, 0L, 0L,
                0L, 0L, List.of(handler), List.of(pool));
        RuntimeSnapshot withoutPools = new RuntimeSnapshot(Instant.EPOCH, workers, List.of(thread), 0.1, 12, 0L,
                0L, 0L, 0L, List.of(handler));
        use(withPools.takenAt(), withPools.workers(), withPools.loops(), withPools.loopsBusyRatio(),
                withPools.actors(), withPools.mailboxBacklog(), withPools.deadLetters(),
                withPools.logRecordsDropped(), withPools.stalls(), withPools.handlers(), withPools.pools(),
                withoutPools);

        TenantStats tenant = new TenantStats("acme", 3, 1000, 42L, 1.5, 0L, 0);
        use(tenant.tenant(), tenant.connections(), tenant.maxConnections(), tenant.requests(),
                tenant.requestsPerSecond(), tenant.errors(), tenant.maxRequestsPerSecond());

        // 1.3
        TenantLoad load = new TenantLoad("acme", 1, 2, 0, 0L, 0, 5L, 1000L, 0.1);
        RuntimeSnapshot withTenants = new RuntimeSnapshot(Instant.EPOCH, workers, List.of(thread), 0.1, 12, 0L,
                0L, 0L, 0L, List.of(handler), List.of(pool), List.of(load));
        TenantStats limited = new TenantStats("acme", 3, 1000, 42L, 1.5, 0L, 0, 100L,
                Map.of(TenantStats.QUEUED_MESSAGES, 5L), Set.of(), 0, 65536, 1, 0, 0, Set.of("echo"));
        use(withTenants.tenants(), limited.bytesReceived(), limited.throttledNanos(), limited.throttledBy(),
                limited.throttledNanos(TenantStats.BYTES_PER_SECOND), limited.maxBytesPerSecond(),
                limited.maxFrameBytes(), limited.weight(), limited.maxActors(), limited.maxQueuedMessages(),
                limited.handlers(), TenantStats.REQUESTS_PER_SECOND);

        // 1.4
        RequestLatency latency = new RequestLatency(List.of(1_000L, 2_000L), List.of(1L, 2L, 0L), 4_500L);
        long count = latency.count();
        double p99 = latency.quantileSeconds(0.99);
        RequestLatency window = latency.since(latency);
        use(RequestLatency.none(), latency.boundsNanos(), latency.counts(), latency.sumNanos(), latency.sumSeconds(),
                latency.boundSeconds(0), count, p99, window);
        RuntimeSnapshot withSwaps = new RuntimeSnapshot(Instant.EPOCH, workers, List.of(thread), 0.1, 12, 0L, 0L,
                0L, 0L, List.of(handler), List.of(pool), List.of(load), 3L, 1L, 4096L);
        use(withSwaps.pluginSwaps(), withSwaps.pluginRollbacks(), withSwaps.logQueueBytes());
        TenantStats measured = new TenantStats("acme", 3, 1000, 42L, 1.5, 2L, 0, 100L, Map.of(), Set.of(), 0,
                65536, 1, 0, 0, Set.of(), Map.of("no.handler", 2L), latency);
        use(measured.errorsByCode(), measured.errors("no.handler"), measured.latency(), TenantStats.OTHER_ERRORS);
    }

    private static void use(Object... values) {
        // a sink, so that every value above is used
    }
}
